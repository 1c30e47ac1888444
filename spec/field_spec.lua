-- Fields (per-cell number arrays) and the grid-only query options built on
-- them: penalty (+ penalty_scale) and forbid.  Exact costs, exact errors,
-- and the grid and the next query untouched.
local astar = require("astar")
local error_of = require("helpers").error_of

local D = astar.DIAGONAL

local function values(f)
  local w, h = f:size()
  local out = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = f:get(x, y) end
    out[y] = row
  end
  return out
end

describe("fields", function()
  it("are made for a grid, filled with 0 or the given value #pure", function()
    local g = astar.grid(7, 3)
    local f = astar.field(g)
    assert.same({ 7, 3 }, { f:size() })
    assert.equal("astar.Field (7x3)", tostring(f))
    for y = 1, 3 do for x = 1, 7 do assert.equal(0, f:get(x, y)) end end
    f = astar.field(g, -2.5)
    for y = 1, 3 do for x = 1, 7 do assert.equal(-2.5, f:get(x, y)) end end
    assert.equal("astar.Field (1x2)", tostring(astar.field(astar.grid(1, 2), 1)))
  end)

  it("get, set and fill #pure", function()
    local g = astar.grid(3, 2)
    local f = astar.field(g)
    f:set(3, 2, 4.5)
    f:set(1, 1, -1)
    assert.same({ { -1, 0, 0 }, { 0, 0, 4.5 } }, values(f))
    f:set(3, 2, 0)
    assert.same({ { -1, 0, 0 }, { 0, 0, 0 } }, values(f))
    f:fill(7)
    assert.same({ { 7, 7, 7 }, { 7, 7, 7 } }, values(f))
    f:fill(-0.25)
    assert.same({ { -0.25, -0.25, -0.25 }, { -0.25, -0.25, -0.25 } }, values(f))
  end)

  it("add_disc adds to every cell whose centre is within the radius, and accumulates #pure", function()
    local g = astar.grid(7, 5)
    local f = astar.field(g)
    f:add_disc(4, 3, 1, 2)
    assert.same({
      { 0, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 0, 2, 0, 0, 0 },
      { 0, 0, 2, 2, 2, 0, 0 },
      { 0, 0, 0, 2, 0, 0, 0 },
      { 0, 0, 0, 0, 0, 0, 0 },
    }, values(f))
    f:add_disc(4, 3, 1.5, 1) -- now the diagonals too
    assert.same({
      { 0, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 1, 3, 1, 0, 0 },
      { 0, 0, 3, 3, 3, 0, 0 },
      { 0, 0, 1, 3, 1, 0, 0 },
      { 0, 0, 0, 0, 0, 0, 0 },
    }, values(f))
    f:fill(0)
    f:add_disc(4, 3, 2, 1) -- distance exactly 2 counts, sqrt(5) does not
    assert.same({
      { 0, 0, 0, 1, 0, 0, 0 },
      { 0, 0, 1, 1, 1, 0, 0 },
      { 0, 1, 1, 1, 1, 1, 0 },
      { 0, 0, 1, 1, 1, 0, 0 },
      { 0, 0, 0, 1, 0, 0, 0 },
    }, values(f))
    f:fill(0)
    f:add_disc(1, 1, 0, -3) -- radius 0: the cell alone
    f:add_disc(7, 5, 1, 5) -- clipped at the corner
    assert.same({
      { -3, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 0, 0, 0, 0, 0 },
      { 0, 0, 0, 0, 0, 0, 5 },
      { 0, 0, 0, 0, 0, 5, 5 },
    }, values(f))
    f:fill(0)
    f:add_disc(2, 2, 1e6, 1) -- a huge radius covers the grid
    for y = 1, 5 do for x = 1, 7 do assert.equal(1, f:get(x, y)) end end
  end)

  it("add_disc matches the distance rule on every cell #pure", function()
    local g = astar.grid(9, 8)
    for _, c in ipairs({ { 1, 1, 3.2 }, { 5, 4, 2.9 }, { 9, 8, 4 }, { 3, 7, 2.24 }, { 6, 2, 5.01 } }) do
      local f = astar.field(g, 1)
      f:add_disc(c[1], c[2], c[3], 0.5)
      for y = 1, 8 do
        for x = 1, 9 do
          local inside = (x - c[1]) ^ 2 + (y - c[2]) ^ 2 <= c[3] * c[3]
          assert.equal(inside and 1.5 or 1, f:get(x, y))
        end
      end
    end
  end)

  it("belong to no grid state: changing the grid does not change them #pure", function()
    local g = astar.grid(3, 1)
    local f = astar.field(g, 2)
    g:set_blocked(2, 1, true)
    g:set_cost(3, 1, 9)
    assert.same({ { 2, 2, 2 } }, values(f))
  end)
end)

describe("field bad input", function()
  local g, f
  before_each(function()
    g = astar.grid(7, 3)
    f = astar.field(g)
    f:set(2, 2, 5)
  end)
  after_each(function()
    -- the field is unchanged and still works
    assert.equal(5, f:get(2, 2))
    assert.equal(0, f:get(7, 3))
    f:set(7, 3, 1)
    assert.equal(1, f:get(7, 3))
    assert.same({ 7, 3 }, { f:size() })
  end)

  local cases = {
    { "field of nothing", function() return astar.field() end,
      "bad argument #1 to 'field' (astar.Grid or astar.Hex expected, got no value)" },
    { "field of a table", function() return astar.field({}) end,
      "bad argument #1 to 'field' (astar.Grid or astar.Hex expected, got table)" },
    { "field of a graph", function() return astar.field(astar.graph()) end,
      "bad argument #1 to 'field' (astar.Grid or astar.Hex expected, got astar.Graph)" },
    { "field with a string value", function() return astar.field(g, "1") end,
      "bad argument #2 to 'field' (number expected, got string)" },
    { "field with a NaN value", function() return astar.field(g, 0 / 0) end,
      "bad argument #2 to 'field' (value must be a finite number, got nan)" },
    { "field with an infinite value", function() return astar.field(g, math.huge) end,
      "bad argument #2 to 'field' (value must be a finite number, got inf)" },
    { "get outside", function() return f:get(8, 1) end,
      "bad argument #1 to 'get' (x must be an integer in 1..7, got 8)" },
    { "get with y = 0", function() return f:get(1, 0) end,
      "bad argument #2 to 'get' (y must be an integer in 1..3, got 0)" },
    { "get without y", function() return f:get(1) end,
      "bad argument #2 to 'get' (number expected, got no value)" },
    { "set with a fractional x", function() f:set(1.5, 1, 1) end,
      "bad argument #1 to 'set' (x must be an integer in 1..7, got 1.5)" },
    { "set with NaN", function() f:set(2, 2, 0 / 0) end,
      "bad argument #3 to 'set' (value must be a finite number, got nan)" },
    { "set with -inf", function() f:set(2, 2, -math.huge) end,
      "bad argument #3 to 'set' (value must be a finite number, got -inf)" },
    { "set without a value", function() f:set(2, 2) end,
      "bad argument #3 to 'set' (number expected, got no value)" },
    { "set with a string", function() f:set(2, 2, "1") end,
      "bad argument #3 to 'set' (number expected, got string)" },
    { "fill with infinity", function() f:fill(math.huge) end,
      "bad argument #1 to 'fill' (value must be a finite number, got inf)" },
    { "fill with nothing", function() f:fill() end,
      "bad argument #1 to 'fill' (number expected, got no value)" },
    { "add_disc outside", function() f:add_disc(1, 4, 1, 1) end,
      "bad argument #2 to 'add_disc' (y must be an integer in 1..3, got 4)" },
    { "add_disc with a negative radius", function() f:add_disc(1, 1, -1, 1) end,
      "bad argument #3 to 'add_disc' (radius must be a finite number >= 0, got -1)" },
    { "add_disc with an infinite radius", function() f:add_disc(1, 1, math.huge, 1) end,
      "bad argument #3 to 'add_disc' (radius must be a finite number >= 0, got inf)" },
    { "add_disc with a NaN value", function() f:add_disc(1, 1, 1, 0 / 0) end,
      "bad argument #4 to 'add_disc' (value must be a finite number, got nan)" },
    { "add_disc without a value", function() f:add_disc(1, 1, 1) end,
      "bad argument #4 to 'add_disc' (number expected, got no value)" },
    { "a field method on a grid", function() return f.size(g) end,
      "bad argument #1 to 'size' (astar.Field expected, got astar.Grid)" },
    { "a field method called with .", function() return f.get(1, 1) end,
      "bad argument #1 to 'get' (astar.Field expected, got number)" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      assert.equal(c[3], error_of(c[2]))
    end)
  end

  it("add_disc refuses to make a value infinite, names the cell, and changes nothing", function()
    -- field values stay finite whatever writes them (set and fill refuse
    -- inf): a sum past the largest double is refused before any cell is
    -- written, so the cells before (3, 2) in row order keep their values too
    f:set(3, 2, 1e308)
    assert.equal("bad argument #4 to 'add_disc' (cell (3, 2) holds 1e+308: adding 1e+308 would "
      .. "make it inf (field values must stay finite))", error_of(function() f:add_disc(2, 2, 2, 1e308) end))
    assert.same({ { 0, 0, 0, 0, 0, 0, 0 }, { 0, 5, 1e308, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0 } }, values(f))
    f:set(7, 1, -1.5e308)
    assert.equal("bad argument #4 to 'add_disc' (cell (7, 1) holds -1.5e+308: adding -1e+308 would "
      .. "make it -inf (field values must stay finite))", error_of(function() f:add_disc(6, 2, 3, -1e308) end))
    assert.equal(0, f:get(6, 2))
    -- up to the largest double is fine, and undoing it is too
    f:add_disc(3, 2, 0, 7e307)
    assert.equal(1.7e308, f:get(3, 2))
    f:add_disc(3, 2, 0, -1.7e308)
    f:set(7, 1, 0)
    -- the finding: with the sum refused, penalty_scale = 0 prices nothing
    -- (inf * 0 would have been nan)
    f:set(2, 2, 1e308)
    assert.error_matches(function() f:add_disc(2, 2, 1, 1e308) end, "would make it inf", 1, true)
    assert.equal(6, g:find_path(1, 2, 7, 2, { penalty = f, penalty_scale = 0 }).cost)
    f:set(2, 2, 5)
    -- a hex grid's field, the same
    local hf = astar.field(astar.hex(5, 5), 1.7e308)
    assert.equal("bad argument #4 to 'add_disc' (cell (2, 1) holds 1.7e+308: adding 1e+308 would "
      .. "make it inf (field values must stay finite))", error_of(function() hf:add_disc(3, 3, 2, 1e308) end))
    for y = 1, 5 do for x = 1, 5 do assert.equal(1.7e308, hf:get(x, y)) end end
    -- a distance field holds inf where no source is reached: that stays
    -- inf, no refusal (it was not finite before)
    local wall = astar.grid(4, 1)
    wall:set_blocked(3, 1, true)
    local d = wall:distances({ { 1, 1 } })
    d:add_disc(3, 1, 1, 1)
    assert.same({ 0, 2, math.huge, math.huge }, { d:get(1, 1), d:get(2, 1), d:get(3, 1), d:get(4, 1) })
  end)

  it("a field of a closed grid cannot be made #pure", function()
    local h = astar.grid(2, 2)
    h:close()
    assert.equal("attempt to use a closed grid", error_of(function() return astar.field(h) end))
  end)
end)

describe("penalty", function()
  -- S.G over an open row: straight costs 2, round the bottom costs 4
  local function corridor()
    return astar.grid_from_string("...\n...", nil, { diagonal = "never" })
  end

  it("is added to the cost of entering the cell and can change the route #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, 5)
    local p = assert(g:find_path(1, 1, 3, 1, { penalty = pen }))
    assert.equal(4, p.cost) -- 2 + 5 = 7 straight
    assert.same({ 1, 4, 5, 6, 3 }, p.nodes)
    p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 0.2 }))
    assert.equal(3, p.cost) -- 1 + 1 + 5 * 0.2
    assert.same({ 1, 2, 3 }, p.nodes)
    p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 0.5 }))
    assert.equal(4, p.cost) -- 4.5 straight
    assert.same({ 1, 4, 5, 6, 3 }, p.nodes)
    p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 0 }))
    assert.equal(2, p.cost)
    assert.same({ 1, 2, 3 }, p.nodes)
    -- the next query and the grid are untouched
    p = assert(g:find_path(1, 1, 3, 1))
    assert.equal(2, p.cost)
    assert.equal(1, g:get_cost(2, 1))
    assert.equal("...\n...\n", g:to_string())
  end)

  it("comes after the cell cost and the tag factor: step * cost * factor + penalty * scale #pure", function()
    local g = astar.grid_from_string("Sm.", { S = true, m = { cost = 2, tag = "mud" } }, { diagonal = "never" })
    local pen = astar.field(g)
    pen:set(2, 1, 0.25)
    pen:set(3, 1, 0.5)
    pen:set(1, 1, 100) -- the start is never entered
    local p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 2, costs = { mud = 3 } }))
    assert.equal((1 * 2 * 3 + 0.25 * 2) + (1 + 0.5 * 2), p.cost)
    assert.equal(1 * 2 + 0.25 + 1 + 0.5, g:find_path(1, 1, 3, 1, { penalty = pen }).cost)
    assert.equal((2 * 0 + 0.25) + (1 + 100), g:find_path(3, 1, 1, 1, { penalty = pen, costs = { mud = 0 } }).cost)
    -- on a diagonal step
    g = astar.grid(2, 2)
    pen = astar.field(g)
    pen:set(2, 2, 1.5)
    assert.equal(D + 1.5, g:find_path(1, 1, 2, 2, { penalty = pen }).cost)
    g:set_cost(2, 2, 1.25)
    assert.equal(1.25 * D + 0.75, g:find_path(1, 1, 2, 2, { penalty = pen, penalty_scale = 0.5 }).cost)
  end)

  it("may be negative while every step stays >= 0 #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, -0.5)
    pen:set(3, 1, -1) -- entering G costs 0
    local p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, heuristic = "zero" }))
    assert.equal(0.5, p.cost)
    assert.same({ 1, 2, 3 }, p.nodes)
  end)

  it("that makes a step negative raises an error naming the cell #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, -2)
    assert.equal("entering cell (2, 1) would cost -1 (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return g:find_path(1, 1, 3, 1, { penalty = pen }) end))
    pen:set(2, 1, -0.75)
    assert.equal("entering cell (2, 1) would cost -0.5 (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 2 }) end))
    -- on a grid with diagonals the step that goes negative first names its cell
    local h = astar.grid(3, 1)
    local hp = astar.field(h)
    hp:set(3, 1, -1.25)
    assert.equal("entering cell (3, 1) would cost -0.25 (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return h:find_path(1, 1, 3, 1, { penalty = hp }) end))
    -- the grid is fine afterwards
    assert.equal(2, g:find_path(1, 1, 3, 1).cost)
    assert.equal(1.625, g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 0.5 }).cost) -- 1 - 0.375 + 1
    g:set_blocked(2, 1, true)
    assert.equal(4, g:find_path(1, 1, 3, 1).cost)
  end)

  it("that overflows a step to infinity raises an error naming the cell (it does not forbid the cell) #pure", function()
    local g = astar.grid(3, 1) -- no way round (2, 1)
    local pen = astar.field(g)
    pen:set(2, 1, 1e308)
    assert.equal(1e308 + 1 + 1, g:find_path(1, 1, 3, 1, { penalty = pen }).cost)
    assert.equal("entering cell (2, 1) would cost inf (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 10 }) end))
    pen:set(2, 1, -1e308)
    assert.equal("entering cell (2, 1) would cost -inf (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 10 }) end))
    assert.equal(2, g:find_path(1, 1, 3, 1).cost)
  end)

  it("on a cell no step enters raises nothing (blocked, forbidden or tag-forbidden cells) #pure", function()
    local g = astar.grid_from_string(".#.\n.l.\n...", { l = "lava" }, { diagonal = "never" })
    local pen = astar.field(g)
    pen:set(2, 1, -50)
    pen:set(2, 2, -50)
    pen:set(2, 3, -50)
    local fb = astar.field(g)
    fb:set(2, 3, 1)
    assert.is_nil(g:find_path(1, 1, 3, 1, { penalty = pen, forbid = fb, costs = { lava = false } }))
    pen:set(2, 3, 0)
    assert.equal(6, g:find_path(1, 1, 3, 1, { penalty = pen, costs = { lava = false } }).cost)
  end)

  it("with a negative penalty_scale: a positive penalty turning a step negative names the cell #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, 2)
    assert.equal("entering cell (2, 1) would cost -1 (penalty * penalty_scale must keep step costs finite and >= 0)",
      error_of(function() return g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = -1 }) end))
    assert.equal(2, g:find_path(1, 1, 3, 1).cost)
  end)

  it("with a negative penalty_scale: a negative penalty adds a positive cost #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, -1)
    local ok, p = pcall(g.find_path, g, 1, 1, 3, 1, { penalty = pen, penalty_scale = -0.5 })
    assert.is_true(ok, "find_path raised: " .. tostring(p))
    assert.equal(2.5, p.cost) -- 1 + (-1) * (-0.5) + 1
    assert.same({ 1, 2, 3 }, p.nodes)
    p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = -3 }))
    assert.equal(4, p.cost) -- 1 + 3 + 1 = 5 straight: round the bottom
    assert.same({ 1, 4, 5, 6, 3 }, p.nodes)
  end)

  it("is what the cost callback receives #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, 0.5)
    local got = {}
    local p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, penalty_scale = 4, cost = function(_, _, x2, y2, c)
      got[x2 .. "," .. y2] = c
      return c
    end }))
    assert.equal(3, got["2,1"])
    assert.equal(1, got["3,1"])
    assert.equal(4, p.cost)
  end)

  it("is read when the query runs: later changes to the field apply to later queries #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    assert.equal(2, g:find_path(1, 1, 3, 1, { penalty = pen }).cost)
    pen:set(3, 1, 1)
    assert.equal(3, g:find_path(1, 1, 3, 1, { penalty = pen }).cost)
    pen:fill(0)
    pen:add_disc(2, 1, 0, 10)
    assert.same({ 1, 4, 5, 6, 3 }, g:find_path(1, 1, 3, 1, { penalty = pen }).nodes)
  end)

  it("is locked while a search reads it: its cost then matches the path #pure", function()
    local g = corridor()
    local pen = astar.field(g)
    pen:set(2, 1, 1)
    for _, change in ipairs({
      { "set", function() pen:set(2, 1, 100) end },
      { "fill", function() pen:fill(100) end },
      { "add_disc", function() pen:add_disc(2, 1, 5, 100) end },
    }) do
      local msg
      local p = assert(g:find_path(1, 1, 3, 1, { penalty = pen, cost = function(_, _, _, _, c)
        msg = msg or select(2, pcall(change[2]))
        return c
      end }))
      assert.matches(("cannot call '%s': field is being searched"):format(change[1]), msg, 1, true)
      assert.equal(3, p.cost)
      assert.equal(1, pen:get(2, 1))
    end
    local forbid = astar.field(g)
    local msg
    g:find_path(1, 1, 3, 1, { forbid = forbid, heuristic = function()
      msg = msg or select(2, pcall(forbid.set, forbid, 2, 1, 1))
      return 0
    end })
    assert.matches("cannot call 'set': field is being searched", msg, 1, true)
    pen:set(2, 1, 0) -- unlocked again
    assert.equal(2, g:find_path(1, 1, 3, 1, { penalty = pen }).cost)
  end)

  it("changed between the steps of a query is a change of the map, as a grid change is #pure", function()
    local g = astar.grid(20, 1)
    local pen = astar.field(g)
    local q = g:query(1, 1, 20, 1, { penalty = pen })
    assert.equal("searching", q:step(2))
    pen:set(10, 1, 5)
    assert.equal("found", q:step())     -- repaired with the new penalty
    assert.equal(24, q:result().cost)
    if astar.backend == "native" then
      assert.equal(1, q:result().repairs)
      assert.is_nil(q:result().restarts)
    else                               -- the pure-Lua backend begins again
      assert.equal(1, q:result().restarts)
    end
    q = g:query(1, 1, 20, 1, { penalty = pen, on_change = "fail" })
    assert.equal("searching", q:step(2))
    pen:set(10, 1, 6)
    assert.equal("changed", q:step())
    local forbid = astar.field(g)
    q = g:query(1, 1, 20, 1, { forbid = forbid, on_change = "fail" })
    pen:fill(0)                  -- a field the query does not read
    assert.equal("searching", q:step(2))
    forbid:set(15, 1, 1)
    assert.equal("changed", q:step())
    q = g:query(1, 1, 20, 1, { forbid = forbid })
    assert.equal("unreachable", q:step())
    forbid:set(15, 1, 0)
    q = g:query(1, 1, 20, 1, { forbid = forbid })
    assert.equal("searching", q:step(2))
    forbid:set(15, 1, 1)
    assert.equal("unreachable", q:step())
    local st = select(3, q:result())
    assert.equal(1, astar.backend == "native" and st.repairs or st.restarts)
    -- before the first step nothing has been read: changes are fine
    q = g:query(1, 1, 20, 1, { penalty = pen })
    pen:set(5, 1, 2)
    assert.equal("found", q:step())
    assert.equal(21, q:result().cost)
  end)

  it("steers round a danger disc (the README's guard post) #pure", function()
    local g = astar.grid(30, 30)
    local danger = astar.field(g)
    danger:add_disc(15, 15, 6, 10)
    local plain = assert(g:find_path(1, 15, 30, 15))
    local wary = assert(g:find_path(1, 15, 30, 15, { penalty = danger }))
    assert.equal(29, plain.cost)
    assert.is_true(wary.cost > plain.cost)
    for _, c in ipairs(wary.xy) do assert.equal(0, danger:get(c[1], c[2])) end
  end)
end)

describe("forbid", function()
  it("makes every cell with a non-zero value impassable for this query only #pure", function()
    local g = astar.grid_from_string("...\n...", nil, { diagonal = "never" })
    for _, v in ipairs({ 1, -1, 0.5, 1e-300 }) do
      local fb = astar.field(g)
      fb:set(2, 1, v)
      local p = assert(g:find_path(1, 1, 3, 1, { forbid = fb }))
      assert.equal(4, p.cost)
      assert.same({ 1, 4, 5, 6, 3 }, p.nodes)
    end
    local fb = astar.field(g)
    assert.equal(2, g:find_path(1, 1, 3, 1, { forbid = fb }).cost) -- all 0
    fb:set(2, 1, 1)
    fb:set(2, 2, 1)
    local p, why, stats = g:find_path(1, 1, 3, 1, { forbid = fb })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(2, stats.expanded)
    assert.equal(2, g:find_path(1, 1, 3, 1).cost) -- the next query is free again
    assert.is_false(g:is_blocked(2, 1))
  end)

  it("on the start or the goal gives unreachable #pure", function()
    local g = astar.grid(3, 3)
    local fb = astar.field(g)
    fb:set(1, 1, 1)
    local p, why, stats = g:find_path(1, 1, 3, 3, { forbid = fb })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(0, stats.expanded)
    p, why = g:find_path(3, 3, 1, 1, { forbid = fb })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    p, why = g:find_path(1, 1, 1, 1, { forbid = fb })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(0, g:find_path(1, 1, 1, 1).cost)
  end)

  it("counts as blocked for the corner rules #pure", function()
    -- 2x2: forbid one side cell, then both
    local want = {
      never = { 2, nil }, no_corner_cutting = { 2, nil }, one_obstacle = { D, nil }, always = { D, D },
    }
    for rule, w in pairs(want) do
      local g = astar.grid(2, 2, { diagonal = rule })
      local fb = astar.field(g)
      fb:set(2, 1, 1)
      local p = assert(g:find_path(1, 1, 2, 2, { forbid = fb }))
      assert.equal(w[1], p.cost, rule)
      fb:set(1, 2, 1)
      p = g:find_path(1, 1, 2, 2, { forbid = fb })
      if w[2] then assert.equal(w[2], p.cost, rule) else assert.is_nil(p, rule) end
      -- the same map with blocked cells answers the same
      g:set_blocked(2, 1, true)
      g:set_blocked(1, 2, true)
      p = g:find_path(1, 1, 2, 2)
      if w[2] then assert.equal(w[2], p.cost, rule) else assert.is_nil(p, rule) end
    end
  end)

  it("combines with penalty, tags and the cost callback #pure", function()
    local g = astar.grid_from_string("S.m.G\n.....\n.....", { S = true, G = true, m = "mud" }, { diagonal = "never" })
    local fb = astar.field(g)
    fb:set(2, 2, 1)
    local pen = astar.field(g)
    pen:set(3, 2, 10)
    -- straight: mud x4 makes it 1 + 4 + 1 + 1 = 7; row 2 is cut at (2,2) and dear at (3,2);
    -- row 3: 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 = 8
    local p = assert(g:find_path(1, 1, 5, 1, { forbid = fb, penalty = pen, costs = { mud = 4 } }))
    assert.equal(7, p.cost)
    assert.same({ 1, 2, 3, 4, 5 }, p.nodes)
    p = assert(g:find_path(1, 1, 5, 1, { forbid = fb, penalty = pen, costs = { mud = false } }))
    assert.equal(8, p.cost) -- round through row 3
    assert.same({ 1, 6, 11, 12, 13 }, { table.unpack(p.nodes, 1, 5) })
    assert.equal(9, #p.nodes)
    local function dear(_, _, x2, y2, c) return (x2 == 3 and y2 == 3) and 2.5 * c or c end
    p = assert(g:find_path(1, 1, 5, 1, { forbid = fb, penalty = pen, costs = { mud = false }, cost = dear }))
    assert.equal(9.5, p.cost)
    assert.same({ 1, 6, 11, 12, 13 }, { table.unpack(p.nodes, 1, 5) })
    -- column 3 closed at every row: mud forbidden, (3,2) only reachable through
    -- forbidden (2,2) or from the right, (3,3) refused by the callback
    local function refuse(_, _, x2, y2, c) return not (x2 == 3 and y2 == 3) and c end
    local why
    p, why = g:find_path(1, 1, 5, 1, { forbid = fb, penalty = pen, costs = { mud = false }, cost = refuse })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(7, g:find_path(1, 1, 5, 1, { forbid = fb, penalty = pen, costs = { mud = 4 }, cost = refuse }).cost)
  end)

  it("refuses fields of another size, and takes any field of the right size #pure", function()
    local g = astar.grid(7, 3)
    local small = astar.field(astar.grid(2, 2))
    local tall = astar.field(astar.grid(3, 7))
    assert.equal("bad argument #5 to 'find_path' (penalty field is 2x2 but the grid is 7x3)",
      error_of(function() return g:find_path(1, 1, 7, 3, { penalty = small }) end))
    assert.equal("bad argument #5 to 'find_path' (forbid field is 3x7 but the grid is 7x3)",
      error_of(function() return g:find_path(1, 1, 7, 3, { forbid = tall }) end))
    local other = astar.field(astar.grid(7, 3), 1) -- made for another grid of the same size
    assert.equal(6 + 6, g:find_path(1, 1, 7, 1, { penalty = other }).cost)
    assert.equal(6, g:find_path(1, 1, 7, 1).cost)
  end)
end)
