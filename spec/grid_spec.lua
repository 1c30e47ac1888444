-- The grid API: building, reading back, the exact errors for bad input (the
-- grid must stay usable after each one), the four diagonal rules on small
-- hand-drawn maps, cell costs, tags, callbacks and every query option; then
-- random grids against a plain Dijkstra written here over the move rules.
local astar = require("astar")
local error_of = require("helpers").error_of
local worlds = require("worlds")

local D = astar.DIAGONAL
local RULES = worlds.RULES

-- A map with 'S' and 'G' marking start and goal (both open, cost 1); other
-- legend entries are passed through.  Returns the grid, sx, sy, gx, gy.
local function map(text, rule, legend)
  legend = legend or {}
  legend.S = legend.S or true
  legend.G = legend.G or true
  local g = astar.grid_from_string(text, legend, rule and { diagonal = rule } or nil)
  local y, pos = 0, {}
  for line in (text .. "\n"):gmatch("(.-)\n") do
    y = y + 1
    for x = 1, #line do
      local c = line:sub(x, x)
      if c == "S" or c == "G" then pos[c] = { x, y } end
    end
  end
  return g, pos.S[1], pos.S[2], pos.G[1], pos.G[2]
end

local close = require("helpers").close

-- The path's xy list matches its cell ids, and it runs from start to goal.
local function assert_shape(g, p, sx, sy, gx, gy)
  assert.equal(#p.nodes, #p.xy)
  for i, id in ipairs(p.nodes) do
    local x, y = g:xy(id)
    assert.same({ x, y }, p.xy[i])
  end
  assert.same({ sx, sy }, p.xy[1])
  assert.same({ gx, gy }, p.xy[#p.xy])
  assert.is_nil(p.edges)
end

describe("grid", function()
  it("builds an open grid and reads it back", function()
    local g = astar.grid(4, 3)
    assert.same({ 4, 3 }, { g:size() })
    assert.equal("no_corner_cutting", g:diagonal())
    assert.equal("astar.Grid (4x3, diagonal no_corner_cutting)", tostring(g))
    for y = 1, 3 do
      for x = 1, 4 do
        assert.is_false(g:is_blocked(x, y))
        assert.equal(1, g:get_cost(x, y))
        assert.is_nil(g:get_tag(x, y))
        local id = g:id(x, y)
        assert.equal((y - 1) * 4 + x, id)
        assert.same({ x, y }, { g:xy(id) })
      end
    end
    assert.equal(math.floor(g:memory()), g:memory()) -- a whole number of bytes
    assert.is_true(g:memory() > 0)
    assert.is_true(astar.grid(100, 100):memory() > g:memory() + 10000)
  end)

  it("counts the bit sets of jump point search in memory(): open cells and stop bits", function()
    -- 126 x 62 against 62 x 62: 64 x 64 padded cells more (2 bytes each) and
    -- 64 more rows' words and 64 more columns' words, in each of 3 sets (the
    -- open cells, the stop bits up, the stop bits down)
    assert.equal(2 * 64 * 64 + 3 * 8 * 128, astar.grid(126, 62):memory() - astar.grid(62, 62):memory())
  end)

  it("accepts every diagonal rule and reports it #pure", function()
    for _, rule in ipairs(RULES) do
      local g = astar.grid(2, 5, { diagonal = rule })
      assert.equal(rule, g:diagonal())
      assert.equal("astar.Grid (2x5, diagonal " .. rule .. ")", tostring(g))
    end
    assert.equal("no_corner_cutting", astar.grid(1, 1, {}):diagonal())
    assert.equal("no_corner_cutting", astar.grid(1, 1, { diagonal = nil }):diagonal())
  end)

  it("stores blocked cells, costs and tags per cell #pure", function()
    local g = astar.grid(3, 2)
    g:set_blocked(2, 1, true)
    g:set_cost(3, 2, 2.5)
    g:set_cost(1, 2, 0)
    g:set_tag(3, 1, "mud")
    g:set_tag(1, 1, "lava")
    assert.is_true(g:is_blocked(2, 1))
    assert.is_false(g:is_blocked(1, 1))
    assert.equal(2.5, g:get_cost(3, 2))
    assert.equal(0, g:get_cost(1, 2))
    assert.equal(1, g:get_cost(2, 2))
    assert.equal("mud", g:get_tag(3, 1))
    assert.equal("lava", g:get_tag(1, 1))
    assert.is_nil(g:get_tag(2, 2))
    g:set_tag(3, 1, nil)
    g:set_tag(1, 1)
    assert.is_nil(g:get_tag(3, 1))
    assert.is_nil(g:get_tag(1, 1))
    g:set_blocked(2, 1, false)
    assert.is_false(g:is_blocked(2, 1))
    g:set_cost(3, 2, 1)
    assert.equal(1, g:get_cost(3, 2))
    assert.equal("...\n~..\n", g:to_string()) -- (1, 2) still costs 0
  end)

  it("has a diagonal step cost of sqrt(2) rounded to a multiple of 2^-32 #pure", function()
    assert.is_true(math.abs(D - math.sqrt(2)) <= 1.2e-11)
    assert.equal(0, D * 2 ^ 32 % 1)
    local p = assert(astar.grid(2, 2):find_path(1, 1, 2, 2))
    assert.equal(D, p.cost)
    assert.same({ 1, 4 }, p.nodes)
    p = assert(astar.grid(9, 9):find_path(1, 1, 9, 9))
    assert.equal(8 * D, p.cost) -- exact: sums of multiples of 2^-32
  end)

  it("returns cost 0 and the one cell when start == goal #pure", function()
    local g = astar.grid(3, 3)
    for _, stop in ipairs({ "expand", "first_hit", "optimal" }) do
      local p = assert(g:find_path(2, 3, 2, 3, { stop = stop }))
      assert.equal(0, p.cost)
      assert.same({ 8 }, p.nodes)
      assert.same({ { 2, 3 } }, p.xy)
      assert.is_nil(p.edges)
    end
  end)

  it("returns nil, 'unreachable', stats for blocked ends and walled-off goals #pure", function()
    local g = map("S.#.\n..#G\n..#.")
    local p, why, stats = g:find_path(1, 1, 4, 2, { visited = true, algorithm = "astar" })
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(0, stats.expanded) -- another component: proven without a search
    assert.equal(0, #stats.visited)
    g:set_blocked(1, 1, true)
    p, why, stats = g:find_path(1, 1, 2, 1)
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.equal(0, stats.expanded)
    p, why = g:find_path(2, 1, 1, 1) -- blocked goal
    assert.is_nil(p)
    assert.equal("unreachable", why)
    p, why = g:find_path(1, 1, 1, 1) -- blocked start == goal
    assert.is_nil(p)
    assert.equal("unreachable", why)
    g:set_blocked(3, 2, false)
    p = assert(g:find_path(2, 1, 4, 2))
    assert.equal(3, p.cost) -- (2,1) -> (2,2) -> (3,2) -> (4,2): (3,1) forbids the diagonal
    assert.same({ 2, 6, 7, 8 }, p.nodes)
  end)

  it("is freed by the garbage collector and can be closed #pure", function()
    for _ = 1, 100 do
      local g = astar.grid(30, 30)
      g:set_cost(3, 3, 2)
      g:find_path(1, 1, 30, 30)
    end
    collectgarbage()
    collectgarbage()
    local g = astar.grid(2, 2)
    g:close()
    g:close() -- idempotent
    assert.equal("astar.Grid (closed)", tostring(g))
    assert.equal("attempt to use a closed grid", error_of(function() return g:size() end))
    assert.equal("attempt to use a closed grid", error_of(function() return g:find_path(1, 1, 2, 2) end))
    assert.equal("attempt to use a closed grid", error_of(function() g:set_blocked(1, 1, true) end))
    assert.equal("attempt to use a closed grid", error_of(function() return astar.field(g) end))
    if _VERSION == "Lua 5.4" then -- to-be-closed variables; other Luas call close()
      g = assert(load([[
        local astar, g = ...
        do
          local h <close> = astar.grid(2, 2)
          g = h
        end
        return g
      ]]))(astar)
    else
      g = astar.grid(2, 2)
      g:close()
    end
    assert.equal("astar.Grid (closed)", tostring(g))
  end)

  it("cannot be changed by a callback during its own search #pure", function()
    local g = astar.grid(3, 3)
    local cases = {
      { function() g:set_blocked(2, 2, true) end, "cannot call 'set_blocked': grid is being searched" },
      { function() g:set_cost(2, 2, 5) end, "cannot call 'set_cost': grid is being searched" },
      { function() g:set_tag(2, 2, "mud") end, "cannot call 'set_tag': grid is being searched" },
    }
    for _, c in ipairs(cases) do
      local msg = error_of(function()
        return g:find_path(1, 1, 3, 3, { cost = function(_, _, _, _, cost) c[1]() return cost end })
      end)
      assert.equal(c[2], msg)
      assert.is_false(g:is_blocked(2, 2))
      assert.equal(1, g:get_cost(2, 2))
      assert.is_nil(g:get_tag(2, 2))
      assert.equal(2 * D, g:find_path(1, 1, 3, 3).cost)
    end
    -- read-only use and nested searches are fine
    local inner
    local p = assert(g:find_path(1, 1, 3, 3, { heuristic = function(x, y)
      assert.is_false(g:is_blocked(x, y))
      inner = inner or g:find_path(3, 3, 1, 1).cost
      return 0
    end }))
    assert.equal(2 * D, p.cost)
    assert.equal(2 * D, inner)
    g:set_blocked(2, 2, true) -- unlocked again
    assert.equal(4, g:find_path(1, 1, 3, 3).cost)
  end)

  it("closed by a callback during its own search, closes when the search ends #pure", function()
    local g = astar.grid(3, 3)
    local p = assert(g:find_path(1, 1, 3, 3, { cost = function(_, _, _, _, cost) g:close() return cost end }))
    assert.equal(2 * D, p.cost)
    assert.equal("astar.Grid (closed)", tostring(g))
  end)
end)

describe("grid_from_string", function()
  it("reads '.', '#' and '@', LF or CRLF, and ignores trailing blank lines #pure", function()
    local text = "..#.\n.@..\n....\n"
    for _, t in ipairs({ text, text:gsub("\n", "\r\n"), text .. "\n\n", "..#.\r\n.@..\r\n....\r\n\r\n", "..#.\n.@..\n...." }) do
      local g = astar.grid_from_string(t)
      assert.same({ 4, 3 }, { g:size() })
      assert.equal("no_corner_cutting", g:diagonal())
      for y = 1, 3 do
        for x = 1, 4 do
          assert.equal((x == 3 and y == 1) or (x == 2 and y == 2), g:is_blocked(x, y))
          assert.equal(1, g:get_cost(x, y))
          assert.is_nil(g:get_tag(x, y))
        end
      end
      assert.equal("..#.\n.#..\n....\n", g:to_string())
    end
  end)

  it("takes the diagonal rule as its third argument #pure", function()
    for _, rule in ipairs(RULES) do
      assert.equal(rule, astar.grid_from_string("..", nil, { diagonal = rule }):diagonal())
    end
  end)

  it("reads every kind of legend entry #pure", function()
    local g = astar.grid_from_string("abcde\nfgh.#", {
      a = true, b = false, c = 2.5, d = "mud",
      e = { cost = 3, tag = "ice" }, f = { blocked = true }, g = { tag = "mud" },
      h = { cost = 0 }, ["#"] = true,
    })
    local function cell(x, y) return { g:is_blocked(x, y), g:get_cost(x, y), g:get_tag(x, y) } end
    assert.same({ false, 1 }, cell(1, 1))
    assert.same({ true, 1 }, cell(2, 1))
    assert.same({ false, 2.5 }, cell(3, 1))
    assert.same({ false, 1, "mud" }, cell(4, 1))
    assert.same({ false, 3, "ice" }, cell(5, 1))
    assert.same({ true, 1 }, cell(1, 2))
    assert.same({ false, 1, "mud" }, cell(2, 2))
    assert.same({ false, 0 }, cell(3, 2))
    assert.same({ false, 1 }, cell(4, 2))
    assert.same({ false, 1 }, cell(5, 2)) -- '#' redefined as open
    assert.equal(".#~~~\n#~~..\n", g:to_string())
  end)

  it("applies legend.default to every unlisted character, not to listed ones #pure", function()
    local g = astar.grid_from_string("xy.#z", { default = 4, z = false })
    assert.same({ 4, 4, 1 }, { g:get_cost(1, 1), g:get_cost(2, 1), g:get_cost(3, 1) })
    assert.same({ false, false, false, true, true },
      { g:is_blocked(1, 1), g:is_blocked(2, 1), g:is_blocked(3, 1), g:is_blocked(4, 1), g:is_blocked(5, 1) })
    g = astar.grid_from_string("xy", { default = "swamp" })
    assert.same({ "swamp", "swamp" }, { g:get_tag(1, 1), g:get_tag(2, 1) })
  end)

  it("keeps every tag of a long legend #pure", function()
    local chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    local legend = { default = { cost = 2, tag = "swamp" } }
    for i = 1, #chars do
      legend[chars:sub(i, i)] = i % 2 == 0 and ("t" .. i) or { tag = "u" .. i, cost = i }
    end
    local g = astar.grid_from_string(chars .. "?", legend)
    for i = 1, #chars do
      assert.equal(i % 2 == 0 and ("t" .. i) or ("u" .. i), g:get_tag(i, 1))
      assert.equal(i % 2 == 0 and 1 or i, g:get_cost(i, 1))
    end
    assert.equal("swamp", g:get_tag(#chars + 1, 1))
    assert.equal(2, g:get_cost(#chars + 1, 1))
    assert.equal(10, g:find_path(1, 1, 2, 1, { costs = { t2 = 10 } }).cost)
    assert.equal(0.5, g:find_path(2, 1, 1, 1, { costs = { u1 = 0.5 } }).cost)
    assert.is_nil(g:find_path(1, 1, 3, 1, { costs = { u3 = false } }))
    assert.equal(2 * 3, g:find_path(#chars, 1, #chars + 1, 1, { costs = { swamp = 3 } }).cost)
  end)

  local bad = {
    { "ragged rows", function() return astar.grid_from_string("..\n...") end,
      "bad argument #1 to 'grid_from_string' (row 2 has 3 cells, row 1 has 2)" },
    { "a ragged CRLF row", function() return astar.grid_from_string("...\r\n...\r\n..\r\n") end,
      "bad argument #1 to 'grid_from_string' (row 3 has 2 cells, row 1 has 3)" },
    { "an unknown character", function() return astar.grid_from_string("..\n.x") end,
      "bad argument #1 to 'grid_from_string' (unknown character 'x' at row 2, column 2 (add it to the legend))" },
    { "a tab", function() return astar.grid_from_string("..\t") end,
      "bad argument #1 to 'grid_from_string' (unknown character \\9 at row 1, column 3 (add it to the legend))" },
    { "an empty map", function() return astar.grid_from_string("\n\n") end,
      "bad argument #1 to 'grid_from_string' (no rows in the map)" },
    { "an inner blank line", function() return astar.grid_from_string("..\n\n..") end,
      "bad argument #1 to 'grid_from_string' (blank line after row 1)" },
    { "a non-string map", function() return astar.grid_from_string({}) end,
      "bad argument #1 to 'grid_from_string' (string expected, got table)" },
    { "a non-table legend", function() return astar.grid_from_string("..", 5) end,
      "bad argument #2 to 'grid_from_string' (table expected, got number)" },
    { "a long legend key", function() return astar.grid_from_string("..", { xx = 1 }) end,
      "bad argument #2 to 'grid_from_string' (legend keys must be single characters or \"default\", got \"xx\")" },
    { "a numeric legend key", function() return astar.grid_from_string("..", { true }) end,
      "bad argument #2 to 'grid_from_string' (legend keys must be single characters or \"default\", got 1)" },
    { "a negative legend cost", function() return astar.grid_from_string("x.", { x = -1 }) end,
      "bad argument #2 to 'grid_from_string' (legend[\"x\"] must be true, false, a cost, a tag name or "
        .. "{ blocked =, cost =, tag = }, got -1)" },
    { "a bad cost in a legend table", function() return astar.grid_from_string("x.", { x = { cost = "a" } }) end,
      "bad argument #2 to 'grid_from_string' (legend[\"x\"].cost must be a finite number >= 0, got \"a\")" },
    { "a negative cost in a legend table", function() return astar.grid_from_string("x.", { x = { cost = -1 } }) end,
      "bad argument #2 to 'grid_from_string' (legend[\"x\"].cost must be a finite number >= 0, got -1)" },
    { "an unknown field in a legend table", function()
      return astar.grid_from_string("x.", { x = { colour = 1 } }) end,
      "bad argument #2 to 'grid_from_string' (legend[\"x\"] has an unknown field \"colour\" "
        .. "(expected blocked, cost or tag))" },
    { "a NaN default", function() return astar.grid_from_string("x.", { default = 0 / 0 }) end,
      "bad argument #2 to 'grid_from_string' (legend[\"default\"] must be true, false, a cost, a tag name or "
        .. "{ blocked =, cost =, tag = }, got nan)" },
    { "an unknown diagonal rule", function() return astar.grid_from_string("..", nil, { diagonal = "x" }) end,
      "bad argument #3 to 'grid_from_string' (diagonal must be \"never\", \"no_corner_cutting\", "
        .. "\"one_obstacle\" or \"always\", got \"x\")" },
    { "an unknown option", function() return astar.grid_from_string("..", nil, { diag = "never" }) end,
      "bad argument #3 to 'grid_from_string' (unknown option \"diag\")" },
  }
  for _, c in ipairs(bad) do
    it("refuses  #pure" .. c[1], function()
      assert.equal(c[3], error_of(c[2]))
    end)
  end
end)

describe("tables of named fields inherit through __index", function()
  it("grid options #pure", function()
    local defaults = { diagonal = "never" }
    assert.equal("never", astar.grid(3, 3, setmetatable({}, { __index = defaults })):diagonal())
    assert.equal("never", astar.grid_from_string("..", nil, setmetatable({}, { __index = defaults })):diagonal())
    assert.equal("bad argument #3 to 'grid' (diagonal must be \"never\", \"no_corner_cutting\", "
      .. "\"one_obstacle\" or \"always\", got \"sideways\")",
      error_of(astar.grid, 3, 3, setmetatable({}, { __index = { diagonal = "sideways" } })))
  end)

  it("legends and their entries; their own keys are still checked #pure", function()
    local base = { x = false, ["~"] = { cost = 3 } }
    local g = astar.grid_from_string("x~.", setmetatable({}, { __index = base }))
    assert.is_true(g:is_blocked(1, 1))
    assert.equal(3, g:get_cost(2, 1))
    g = astar.grid_from_string("~", { ["~"] = setmetatable({}, { __index = { tag = "mud", cost = 2 } }) })
    assert.equal("mud", g:get_tag(1, 1))
    assert.equal(2, g:get_cost(1, 1))
    g = astar.grid_from_string("?!", setmetatable({}, { __index = { default = 7 } }))
    assert.equal(7, g:get_cost(2, 1))
    assert.equal("bad argument #2 to 'grid_from_string' (legend[\"~\"].cost must be a finite number >= 0, got -1)",
      error_of(astar.grid_from_string, "~", setmetatable({}, { __index = { ["~"] = { cost = -1 } } })))
    assert.equal("bad argument #2 to 'grid_from_string' (legend keys must be single characters or \"default\", "
      .. "got \"xy\")", error_of(astar.grid_from_string, "~", setmetatable({ xy = 1 }, { __index = base })))
    -- an entry of the legend that the text never uses is still checked
    assert.equal("bad argument #2 to 'grid_from_string' (legend[\"z\"] must be true, false, a cost, a tag name or "
      .. "{ blocked =, cost =, tag = }, got -1)", error_of(astar.grid_from_string, "..", { z = -1 }))
  end)
end)

describe("grid:to_string", function()
  it("draws a path result or a list of cell ids #pure", function()
    local g = map("S.#\n~.#\n..G", nil, { ["~"] = 3 })
    local p = assert(g:find_path(1, 1, 3, 3))
    assert.same({ 1, 5, 8, 9 }, p.nodes) -- (1,1) -> (2,2) -> (2,3) -> (3,3)
    assert.equal("S.#\n~*#\n.*G\n", g:to_string(p))
    assert.equal("..#\nS*#\n..G\n", g:to_string({ 4, 5, 9 }))
    assert.equal("..#\n~.#\n...\n", g:to_string({}))
    assert.equal("..#\n~.#\n...\n", g:to_string())
  end)

  it("refuses what is not a path of this grid #pure", function()
    local g = astar.grid(2, 2)
    assert.equal("bad argument #1 to 'to_string' (table (a path or a list of cell ids) expected, got number)",
      error_of(function() return g:to_string(5) end))
    assert.equal("bad argument #1 to 'to_string' (path entry 2 is not a cell id of this grid, got 5)",
      error_of(function() return g:to_string({ 1, 5 }) end))
    assert.equal("bad argument #1 to 'to_string' (path entry 1 is not a cell id of this grid, got 1.5)",
      error_of(function() return g:to_string({ 1.5 }) end))
    assert.equal("bad argument #1 to 'to_string' (path entry 1 is not a cell id of this grid, got \"1\")",
      error_of(function() return g:to_string({ "1" }) end))
    assert.equal("..\n..\n", g:to_string())
  end)
end)

-- After a bad call the grid still answers a normal query and accepts changes.
local function std()
  return astar.grid_from_string("....\n.#..\n....\n....")
end
local function assert_usable(g)
  assert.same({ 4, 4 }, { g:size() })
  assert.is_true(g:is_blocked(2, 2))
  local p = assert(g:find_path(3, 3, 4, 4))
  assert.equal(D, p.cost)
  assert.same({ 11, 16 }, p.nodes)
  assert.equal(4, g:find_path(1, 1, 3, 3).cost) -- no corner of (2, 2) may be cut
  g:set_cost(4, 4, 2)
  assert.equal(2 * D, g:find_path(3, 3, 4, 4).cost)
  g:set_cost(4, 4, 1)
end

describe("grid bad input", function()
  local g
  before_each(function() g = std() end)
  after_each(function() assert_usable(g) end)

  local H = "\"zero\", \"euclidean\", \"manhattan\", \"octile\", \"chebyshev\", \"bisector\" or \"full_bisector\""
  local cases = {
    { "set_blocked with x = 0", function() g:set_blocked(0, 1, true) end,
      "bad argument #1 to 'set_blocked' (x must be an integer in 1..4, got 0)" },
    { "set_blocked with y past the end", function() g:set_blocked(1, 5, true) end,
      "bad argument #2 to 'set_blocked' (y must be an integer in 1..4, got 5)" },
    { "set_blocked with a fractional x", function() g:set_blocked(1.5, 1, true) end,
      "bad argument #1 to 'set_blocked' (x must be an integer in 1..4, got 1.5)" },
    { "set_blocked with a string x", function() g:set_blocked("1", 1, true) end,
      "bad argument #1 to 'set_blocked' (number expected, got string)" },
    { "set_blocked with a number", function() g:set_blocked(1, 1, 1) end,
      "bad argument #3 to 'set_blocked' (boolean expected, got number)" },
    { "set_blocked without a value", function() g:set_blocked(1, 1) end,
      "bad argument #3 to 'set_blocked' (boolean expected, got no value)" },
    { "is_blocked outside", function() return g:is_blocked(5, 1) end,
      "bad argument #1 to 'is_blocked' (x must be an integer in 1..4, got 5)" },
    { "is_blocked without y", function() return g:is_blocked(1) end,
      "bad argument #2 to 'is_blocked' (number expected, got no value)" },
    { "set_cost with a negative cost", function() g:set_cost(1, 1, -1) end,
      "bad argument #3 to 'set_cost' (cost must be a finite number >= 0, got -1)" },
    { "set_cost with NaN", function() g:set_cost(1, 1, 0 / 0) end,
      "bad argument #3 to 'set_cost' (cost must be a finite number >= 0, got nan)" },
    { "set_cost with infinity", function() g:set_cost(1, 1, math.huge) end,
      "bad argument #3 to 'set_cost' (cost must be a finite number >= 0, got inf)" },
    { "set_cost with a string", function() g:set_cost(1, 1, "2") end,
      "bad argument #3 to 'set_cost' (number expected, got string)" },
    { "get_cost outside", function() return g:get_cost(1, 0) end,
      "bad argument #2 to 'get_cost' (y must be an integer in 1..4, got 0)" },
    { "set_tag with a number", function() g:set_tag(1, 1, 3) end,
      "bad argument #3 to 'set_tag' (string (tag name) expected, got number)" },
    { "set_tag with false", function() g:set_tag(1, 1, false) end,
      "bad argument #3 to 'set_tag' (string (tag name) expected, got boolean)" },
    { "get_tag outside", function() return g:get_tag(-1, 1) end,
      "bad argument #1 to 'get_tag' (x must be an integer in 1..4, got -1)" },
    { "id outside", function() return g:id(5, 1) end,
      "bad argument #1 to 'id' (x must be an integer in 1..4, got 5)" },
    { "xy of cell 17", function() return g:xy(17) end,
      "bad argument #1 to 'xy' (cell 17 does not exist (the grid has 16 cells))" },
    { "xy of cell 0", function() return g:xy(0) end,
      "bad argument #1 to 'xy' (cell 0 does not exist (the grid has 16 cells))" },
    { "xy of a fractional id", function() return g:xy(1.5) end,
      "bad argument #1 to 'xy' (cell id must be an integer, got 1.5)" },
    { "xy of a string", function() return g:xy("1") end,
      "bad argument #1 to 'xy' (cell id expected, got string)" },
    { "line_of_sight outside", function() return g:line_of_sight(1, 1, 5, 1) end,
      "bad argument #3 to 'line_of_sight' (x must be an integer in 1..4, got 5)" },
    { "visible_from with a negative radius", function() return g:visible_from(1, 1, -1) end,
      "bad argument #3 to 'visible_from' (radius must be a finite number >= 0, got -1)" },
    { "visible_from with a NaN radius", function() return g:visible_from(1, 1, 0 / 0) end,
      "bad argument #3 to 'visible_from' (radius must be a finite number >= 0, got nan)" },
    { "find_path from outside", function() return g:find_path(0, 1, 4, 4) end,
      "bad argument #1 to 'find_path' (x must be an integer in 1..4, got 0)" },
    { "find_path to outside", function() return g:find_path(1, 1, 4, 5) end,
      "bad argument #4 to 'find_path' (y must be an integer in 1..4, got 5)" },
    { "find_path with non-table options", function() return g:find_path(1, 1, 4, 4, "fast") end,
      "bad argument #5 to 'find_path' (table expected, got string)" },
    { "find_path with a misspelt option", function() return g:find_path(1, 1, 4, 4, { penalty_scal = 1 }) end,
      "bad argument #5 to 'find_path' (unknown option \"penalty_scal\")" },
    { "find_path with an unknown heuristic", function() return g:find_path(1, 1, 4, 4, { heuristic = "euclid" }) end,
      "bad argument #5 to 'find_path' (heuristic must be a function, a registered name or " .. H .. ", got \"euclid\")" },
    { "find_path with an unknown stop", function() return g:find_path(1, 1, 4, 4, { stop = "now" }) end,
      "bad argument #5 to 'find_path' (stop must be \"expand\", \"first_hit\" or \"optimal\", got \"now\")" },
    { "find_path with an unknown tie_break", function() return g:find_path(1, 1, 4, 4, { tie_break = "low_g" }) end,
      "bad argument #5 to 'find_path' (tie_break must be \"high_g\" or \"fifo\", got \"low_g\")" },
    { "find_path with a negative weight", function() return g:find_path(1, 1, 4, 4, { weight = -1 }) end,
      "bad argument #5 to 'find_path' (weight must be a finite number >= 0, got -1)" },
    { "find_path with a negative tag factor", function() return g:find_path(1, 1, 4, 4, { costs = { mud = -2 } }) end,
      "bad argument #5 to 'find_path' (costs.mud must be a finite number >= 0 or false, got -2)" },
    { "find_path with a non-function cost", function() return g:find_path(1, 1, 4, 4, { cost = 3 }) end,
      "bad argument #5 to 'find_path' (cost must be a function, got 3)" },
    { "find_path with a non-boolean visited", function() return g:find_path(1, 1, 4, 4, { visited = "yes" }) end,
      "bad argument #5 to 'find_path' (visited must be a boolean, got \"yes\")" },
    { "find_path with a number as penalty", function() return g:find_path(1, 1, 4, 4, { penalty = 3 }) end,
      "bad argument #5 to 'find_path' (penalty must be an astar.Field, got 3)" },
    { "find_path with a table as forbid", function() return g:find_path(1, 1, 4, 4, { forbid = {} }) end,
      "bad argument #5 to 'find_path' (forbid must be an astar.Field, got table)" },
    { "find_path with a grid as penalty", function() return g:find_path(1, 1, 4, 4, { penalty = g }) end,
      "bad argument #5 to 'find_path' (penalty must be an astar.Field, got astar.Grid)" },
    { "find_path with a wrong-size penalty", function()
        return g:find_path(1, 1, 4, 4, { penalty = astar.field(astar.grid(2, 2)) }) end,
      "bad argument #5 to 'find_path' (penalty field is 2x2 but the grid is 4x4)" },
    { "find_path with a string penalty_scale", function() return g:find_path(1, 1, 4, 4, { penalty_scale = "1" }) end,
      "bad argument #5 to 'find_path' (penalty_scale must be a finite number, got \"1\")" },
    { "find_path with an infinite penalty_scale", function()
        return g:find_path(1, 1, 4, 4, { penalty_scale = math.huge }) end,
      "bad argument #5 to 'find_path' (penalty_scale must be a finite number, got inf)" },
    { "find_path with a NaN penalty_scale", function() return g:find_path(1, 1, 4, 4, { penalty_scale = 0 / 0 }) end,
      "bad argument #5 to 'find_path' (penalty_scale must be a finite number, got nan)" },
    { "a method called with . instead of :", function() return g.find_path(1, 1, 4, 4) end,
      "bad argument #1 to 'find_path' (astar.Grid expected, got number)" },
    { "a grid method on a graph", function() return g.size(astar.graph()) end,
      "bad argument #1 to 'size' (astar.Grid expected, got astar.Graph)" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      assert.equal(c[3], error_of(c[2]))
    end)
  end

  it("leaves the cell unchanged after a refused change #pure", function()
    g:set_cost(1, 1, 2)
    g:set_tag(1, 1, "mud")
    error_of(function() g:set_cost(1, 1, -1) end)
    error_of(function() g:set_tag(1, 1, 7) end)
    error_of(function() g:set_blocked(1, 1, "yes") end)
    assert.equal(2, g:get_cost(1, 1))
    assert.equal("mud", g:get_tag(1, 1))
    assert.is_false(g:is_blocked(1, 1))
    g:set_cost(1, 1, 1)
    g:set_tag(1, 1, nil)
  end)

  it("graph find_path refuses the grid-only options", function()
    local gr = astar.graph()
    gr:add_node(0, 0)
    gr:add_node(1, 0)
    gr:add_edge(1, 2, 1)
    for _, k in ipairs({ "penalty", "forbid", "penalty_scale" }) do
      assert.equal(("bad argument #3 to 'find_path' (option \"%s\" is only for grids)"):format(k),
        error_of(function() return gr:find_path(1, 2, { [k] = 1 }) end))
    end
    assert.equal(1, gr:find_path(1, 2).cost)
  end)
end)

describe("astar.grid bad input", function()
  local cases = {
    { function() return astar.grid(0, 3) end, "bad argument #1 to 'grid' (width must be an integer in 1..65535, got 0)" },
    { function() return astar.grid(3, 65536) end,
      "bad argument #2 to 'grid' (height must be an integer in 1..65535, got 65536)" },
    { function() return astar.grid(2.5, 3) end, "bad argument #1 to 'grid' (width must be an integer in 1..65535, got 2.5)" },
    { function() return astar.grid("3", 3) end, "bad argument #1 to 'grid' (number expected, got string)" },
    { function() return astar.grid(3) end, "bad argument #2 to 'grid' (number expected, got no value)" },
    { function() return astar.grid(3, 3, "never") end, "bad argument #3 to 'grid' (table expected, got string)" },
    { function() return astar.grid(3, 3, { diagonal = "sometimes" }) end,
      "bad argument #3 to 'grid' (diagonal must be \"never\", \"no_corner_cutting\", \"one_obstacle\" or \"always\", "
        .. "got \"sometimes\")" },
    { function() return astar.grid(3, 3, { diagonal = true }) end,
      "bad argument #3 to 'grid' (diagonal must be \"never\", \"no_corner_cutting\", \"one_obstacle\" or \"always\", "
        .. "got true)" },
    { function() return astar.grid(3, 3, { diagonals = "never" }) end, "bad argument #3 to 'grid' (unknown option \"diagonals\")" },
    { function() return astar.grid(40000, 40000) end,
      "bad argument #2 to 'grid' (grid too large (width * height must be below 2^30))" },
  }
  for i, c in ipairs(cases) do
    it("refuses case  #pure" .. i .. ": " .. c[2], function()
      assert.equal(c[2], error_of(c[1]))
    end)
  end
end)

describe("diagonal rules on hand-drawn maps", function()
  -- expected[rule] = { cost, cell ids } (nil: unreachable; ids false: only the cost is unique)
  local cases = {
    { "a squeeze between two blocked cells", "S#\n#G", {
      never = nil, no_corner_cutting = nil, one_obstacle = nil, always = { D, { 1, 4 } } } },
    { "one blocked corner", "S#.\n...\n.#G", {
      never = { 4, { 1, 4, 5, 6, 9 } }, no_corner_cutting = { 4, { 1, 4, 5, 6, 9 } },
      one_obstacle = { 2 * D, { 1, 5, 9 } }, always = { 2 * D, { 1, 5, 9 } } } },
    { "an open room", "S..\n...\n..G", {
      never = { 4, false }, no_corner_cutting = { 2 * D, { 1, 5, 9 } },
      one_obstacle = { 2 * D, { 1, 5, 9 } }, always = { 2 * D, { 1, 5, 9 } } } },
    { "a map where every rule differs", "S.#G\n.#..\n....", {
      never = { 7, false },
      no_corner_cutting = { 5 + D, { 1, 5, 9, 10, 11, 8, 4 } },
      one_obstacle = { 1 + 3 * D, { 1, 5, 10, 7, 4 } },
      always = { 1 + 2 * D, { 1, 2, 7, 4 } } } },
  }
  for _, c in ipairs(cases) do
    for _, rule in ipairs(RULES) do
      it(c[1] .. ", " .. rule, function()
        local g, sx, sy, gx, gy = map(c[2], rule)
        local want = c[3][rule]
        for _, tie in ipairs({ "high_g", "fifo" }) do
          local p, why = g:find_path(sx, sy, gx, gy, { tie_break = tie })
          if want == nil then
            assert.is_nil(p)
            assert.equal("unreachable", why)
          else
            assert.equal(want[1], p.cost)
            if want[2] then assert.same(want[2], p.nodes) end
            assert_shape(g, p, sx, sy, gx, gy)
            for i = 2, #p.xy do
              local dx = math.abs(p.xy[i][1] - p.xy[i - 1][1])
              local dy = math.abs(p.xy[i][2] - p.xy[i - 1][2])
              assert.is_true(dx <= 1 and dy <= 1 and dx + dy >= 1)
              if rule == "never" then assert.equal(1, dx + dy) end
            end
          end
          -- symmetric maps: the way back costs the same
          local back = g:find_path(gx, gy, sx, sy)
          if want == nil then assert.is_nil(back) else assert.equal(want[1], back.cost) end
        end
      end)
    end
  end

  it("set_blocked changes the moves of the neighbours at once #pure", function()
    local g = astar.grid(2, 2)
    assert.equal(D, g:find_path(1, 1, 2, 2).cost)
    g:set_blocked(2, 1, true) -- the corner is now cut
    assert.equal(2, g:find_path(1, 1, 2, 2).cost)
    g:set_blocked(1, 2, true)
    assert.is_nil(g:find_path(1, 1, 2, 2))
    g:set_blocked(2, 1, false)
    g:set_blocked(1, 2, false)
    assert.equal(D, g:find_path(1, 1, 2, 2).cost)
  end)
end)

describe("cell costs", function()
  it("multiply the step that enters the cell #pure", function()
    local g, sx, sy, gx, gy = map("S33G\n....", "never", { ["3"] = 3 })
    local p = assert(g:find_path(sx, sy, gx, gy))
    assert.equal(5, p.cost) -- around: 3 + 3 + 1 = 7 through
    assert.same({ 1, 5, 6, 7, 8, 4 }, p.nodes)
    g, sx, sy, gx, gy = map("S33G\n....", "no_corner_cutting", { ["3"] = 3 })
    p = assert(g:find_path(sx, sy, gx, gy))
    assert.equal(1 + 2 * D, p.cost)
    assert.same({ 1, 6, 7, 4 }, p.nodes)
    -- the way back enters S (cost 1) instead of G: same cost here
    assert.equal(1 + 2 * D, g:find_path(gx, gy, sx, sy).cost)
  end)

  it("may be 0, on cardinal and diagonal steps #pure", function()
    local g = map("S00G", "never", { ["0"] = 0 })
    local p = assert(g:find_path(1, 1, 4, 1))
    assert.equal(1, p.cost) -- only G costs
    assert.same({ 1, 2, 3, 4 }, p.nodes)
    assert.equal(0, g:find_path(4, 1, 2, 1).cost)
    g = astar.grid_from_string("..\n.0", { ["0"] = 0 })
    p = assert(g:find_path(1, 1, 2, 2, { heuristic = "zero" }))
    assert.equal(0, p.cost)
    assert.same({ 1, 4 }, p.nodes)
    assert.equal(D, g:find_path(2, 2, 1, 1).cost)
  end)

  it("set_cost changes later queries #pure", function()
    local g = astar.grid(3, 1)
    assert.equal(2, g:find_path(1, 1, 3, 1).cost)
    g:set_cost(2, 1, 4.5)
    assert.equal(5.5, g:find_path(1, 1, 3, 1).cost)
    assert.equal(1, g:find_path(2, 1, 3, 1).cost)
    g:set_cost(2, 1, 1)
    assert.equal(2, g:find_path(1, 1, 3, 1).cost)
  end)
end)

describe("tags", function()
  local text = "SmmG\n.ll.\n...."
  local legend = { m = "mud", l = "lava" }

  it("get per-query factors, false forbids, and the next query is unaffected #pure", function()
    local g, sx, sy, gx, gy = map(text, "never", legend)
    local function q(costs)
      local p = g:find_path(sx, sy, gx, gy, costs and { costs = costs } or nil)
      return p and p.cost, p and p.nodes
    end
    assert.same({ 3, { 1, 2, 3, 4 } }, { q() })
    assert.same({ 5, { 1, 5, 6, 7, 8, 4 } }, { q({ mud = 3 }) })
    assert.same({ 7, { 1, 5, 9, 10, 11, 12, 8, 4 } }, { q({ mud = 4, lava = false }) })
    assert.same({ 7, { 1, 5, 9, 10, 11, 12, 8, 4 } }, { q({ mud = false, lava = false }) })
    assert.same({ 1, { 1, 2, 3, 4 } }, { q({ mud = 0 }) })
    assert.same({ 3, { 1, 2, 3, 4 } }, { q({ lava = false, rock = false, ice = 9 }) }) -- unused tags are ignored
    assert.same({ 3, { 1, 2, 3, 4 } }, { q() })
    assert.same({ 3, { 1, 2, 3, 4 } }, { q({}) })
  end)

  it("multiply the cell cost, and a forbidden start or goal is unreachable, as a forbid field's #pure", function()
    local g = astar.grid_from_string("ab.", { a = "lava", b = { cost = 2, tag = "mud" } }, { diagonal = "never" })
    assert.equal(3, g:find_path(1, 1, 3, 1).cost)
    assert.equal(7, g:find_path(1, 1, 3, 1, { costs = { mud = 3 } }).cost) -- 2 * 3 + 1
    assert.equal(1, g:find_path(1, 1, 3, 1, { costs = { mud = 0 } }).cost)
    -- a cell forbidden by its tag is impassable for the query, as a blocked
    -- cell: no path starts or ends there (0.2 let a path leave it)
    local lava = astar.field(g)
    lava:set(1, 1, 1)
    for _, o in ipairs({ { costs = { lava = false } }, { forbid = lava } }) do
      for _, ends in ipairs({ { 1, 1, 3, 1 }, { 3, 1, 1, 1 } }) do
        local p, why = g:find_path(ends[1], ends[2], ends[3], ends[4], o)
        assert.is_nil(p)
        assert.equal("unreachable", why)
      end
      assert.equal(math.huge, g:distances({ { 3, 1 } }, o):get(1, 1))
      assert.equal(math.huge, g:distances({ { 1, 1 } }, o):get(3, 1)) -- a forbidden source is no source
    end
    assert.equal(3, g:find_path(3, 1, 1, 1).cost)
    g:set_tag(2, 1, nil)
    assert.equal(3, g:find_path(1, 1, 3, 1, { costs = { mud = 3 } }).cost) -- 2 + 1
  end)

  it("forbid a cell exactly as the forbid field does: ends, corners, distances, every rule", function()
    for _, rule in ipairs({ "never", "no_corner_cutting", "one_obstacle", "always" }) do
      local g = astar.grid(2, 2, { diagonal = rule })
      g:set_tag(2, 1, "lava")
      local field = astar.field(g)
      field:set(2, 1, 1)
      local by_tag, by_field = { costs = { lava = false } }, { forbid = field }
      local function same(f, label)
        local a, b = { f(by_tag) }, { f(by_field) }
        assert.equal(tostring(a[1] and a[1].cost), tostring(b[1] and b[1].cost), rule .. ": " .. label)
        assert.equal(a[2], b[2], rule .. ": " .. label)
        return a[1]
      end
      -- the corner: (1, 1) -> (2, 2) past the forbidden (2, 1)
      local p = same(function(o) return g:find_path(1, 1, 2, 2, o) end, "corner")
      local want = ({ never = 2, no_corner_cutting = 2, one_obstacle = D, always = D })[rule]
      assert.equal(want, p.cost, rule)
      same(function(o) return g:find_path(2, 1, 2, 2, o) end, "start")
      same(function(o) return g:find_path(1, 2, 2, 1, o) end, "goal")
      for _, dir in ipairs({ "to_sources", "from_sources" }) do
        for _, src in ipairs({ { 1, 1 }, { 2, 1 } }) do
          local a = g:distances({ src }, { costs = by_tag.costs, direction = dir })
          local b = g:distances({ src }, { forbid = field, direction = dir })
          for y = 1, 2 do
            for x = 1, 2 do assert.equal(b:get(x, y), a:get(x, y), rule .. " " .. dir) end
          end
        end
      end
      -- and a unit of size 2, whose block holds the forbidden cell
      local u = same(function(o)
        return g:find_path(1, 1, 1, 1, { size = 2, costs = o.costs, forbid = o.forbid })
      end, "unit")
      assert.is_nil(u)
      assert.equal(0, g:find_path(1, 1, 1, 1, { size = 2 }).cost)
    end
  end)

  it("apply to diagonal steps too #pure", function()
    local g = astar.grid_from_string("..\n.m", { m = "mud" })
    assert.equal(D, g:find_path(1, 1, 2, 2).cost)
    assert.equal(1.2 * D, g:find_path(1, 1, 2, 2, { costs = { mud = 1.2 } }).cost)
    assert.equal(3.5, g:find_path(1, 1, 2, 2, { costs = { mud = 2.5 } }).cost) -- around: 1 + 2.5
    assert.is_nil(g:find_path(1, 1, 2, 2, { costs = { mud = false } }))
  end)
end)

describe("grid callbacks", function()
  it("the heuristic receives the cell's and the goal's coordinates #pure", function()
    local g = map("S...\n.#..\n...G")
    local seen = {}
    local p = assert(g:find_path(1, 1, 4, 3, { heuristic = function(x, y, gx, gy, extra)
      assert.same({ 4, 3 }, { gx, gy })
      assert.is_nil(extra)
      assert.is_false(g:is_blocked(x, y))
      local id = g:id(x, y)
      assert.is_nil(seen[id]) -- at most once per cell
      seen[id] = true
      return 0
    end }))
    assert.equal(3 + D, p.cost)
    assert.is_true(seen[1] and seen[12])
  end)

  it("the cost callback receives the step's coordinates and its cost after every modifier #pure", function()
    -- (2,1) costs 2, is mud (x3) and has penalty 0.25 (x scale 2): 6.5
    local g = astar.grid_from_string("Sm.", { S = true, m = { cost = 2, tag = "mud" } }, { diagonal = "never" })
    local pen = astar.field(g)
    pen:set(2, 1, 0.25)
    local calls = {}
    local p = assert(g:find_path(1, 1, 3, 1, { costs = { mud = 3 }, penalty = pen, penalty_scale = 2,
      cost = function(x1, y1, x2, y2, cost, extra)
        assert.is_nil(extra)
        calls[#calls + 1] = { x1, y1, x2, y2, cost }
        return cost + 1
      end }))
    assert.same({ { 1, 1, 2, 1, 6.5 }, { 2, 1, 3, 1, 1 } }, calls)
    assert.equal(9.5, p.cost) -- 7.5 + 2
    assert.same({ 1, 2, 3 }, p.nodes)
  end)

  it("the cost callback shapes the path: false forbids, numbers replace #pure", function()
    local g, sx, sy, gx, gy = map("S.G\n...", "never")
    local function avoid(_, _, x2, y2, cost)
      if x2 == 2 and y2 == 1 then return false end
      return cost
    end
    local p = assert(g:find_path(sx, sy, gx, gy, { cost = avoid }))
    assert.equal(4, p.cost)
    assert.same({ 1, 4, 5, 6, 3 }, p.nodes)
    p = assert(g:find_path(sx, sy, gx, gy, { cost = function(x1, _, x2) return x2 > x1 and 0 or 5 end }))
    assert.equal(0, p.cost)
    assert.same({ 1, 2, 3 }, p.nodes)
    -- asymmetric: going down is dear, the way back is not
    local function dear_down(_, y1, _, y2, cost) return y2 > y1 and 10 or cost end
    assert.equal(2, g:find_path(1, 1, 3, 1, { cost = dear_down }).cost)
    assert.equal(12, g:find_path(1, 1, 3, 2, { cost = dear_down }).cost)
    assert.equal(3, g:find_path(1, 2, 3, 1, { cost = dear_down }).cost)
    assert.equal(2, g:find_path(sx, sy, gx, gy).cost) -- the next query is plain again
  end)

  local bad = {
    { "heuristic", function() return -1 end, "heuristic returned -1 for cell (1, 1) (expected a finite number >= 0)" },
    { "heuristic", function(x, y) return (x == 2 and y == 1) and 0 / 0 or 0 end,
      "heuristic returned nan for cell (2, 1) (expected a finite number >= 0)" },
    { "heuristic", function() return "1" end, "heuristic returned \"1\" for cell (1, 1) (expected a finite number >= 0)" },
    { "cost", function() return -1 end,
      "cost callback returned -1 for the step from (1, 1) to (2, 1) (expected a finite number >= 0 or false)" },
    { "cost", function() return true end,
      "cost callback returned true for the step from (1, 1) to (2, 1) (expected a finite number >= 0 or false)" },
    { "cost", function() return math.huge end,
      "cost callback returned inf for the step from (1, 1) to (2, 1) (expected a finite number >= 0 or false)" },
  }
  for _, c in ipairs(bad) do
    it("a  #pure" .. c[1] .. " callback returning a bad value raises naming the cell: " .. c[3], function()
      local g = astar.grid(3, 3)
      -- A* (jump point search would ask the heuristic about other cells)
      assert.equal(c[3], error_of(function()
        return g:find_path(1, 1, 3, 3, { [c[1]] = c[2], algorithm = "astar" })
      end))
      assert.equal(2 * D, g:find_path(1, 1, 3, 3).cost)
      g:set_blocked(2, 2, true)
      assert.equal(4, g:find_path(1, 1, 3, 3).cost)
    end)
  end

  it("errors raised by callbacks pass through unchanged #pure", function()
    local g = astar.grid(3, 3)
    local obj = {}
    local ok, err = pcall(g.find_path, g, 1, 1, 3, 3, { cost = function() error(obj) end })
    assert.is_false(ok)
    assert.equal(obj, err)
    ok, err = pcall(g.find_path, g, 1, 1, 3, 3, { heuristic = function() error("boom") end })
    assert.is_false(ok)
    assert.matches("grid_spec.lua:%d+: boom$", err)
    assert.equal(2 * D, g:find_path(1, 1, 3, 3).cost)
  end)
end)

describe("grid query options", function()
  it("the default heuristic is octile on diagonal grids and manhattan on 'never' grids #pure", function()
    -- the start's f is its h
    local want = { never = 5, no_corner_cutting = 3 + 2 * (D - 1), one_obstacle = 3 + 2 * (D - 1),
      always = 3 + 2 * (D - 1) }
    for _, rule in ipairs(RULES) do
      local g = astar.grid(4, 3, { diagonal = rule })
      local p = assert(g:find_path(1, 1, 4, 3, { trace = true }))
      assert.is_true(close(want[rule], p.trace[1].f), rule)
    end
  end)

  it("built-in heuristics use the cell coordinates #pure", function()
    local g = astar.grid(5, 4)
    local want = { zero = 0, euclidean = 5, manhattan = 7, octile = 4 + 3 * (D - 1), chebyshev = 4,
      bisector = 0, full_bisector = 5 }
    for h, f in pairs(want) do
      local p = assert(g:find_path(1, 1, 5, 4, { heuristic = h, trace = true }))
      assert.is_true(close(f, p.trace[1].f), h .. ": " .. p.trace[1].f)
      if h ~= "manhattan" and h ~= "bisector" and h ~= "full_bisector" then
        assert.equal(3 * D + 1, p.cost) -- admissible here
      end
    end
  end)

  it("trace records x and y; visited lists the expanded cells #pure", function()
    local g = astar.grid(3, 2, { diagonal = "never" })
    g:set_blocked(1, 2, true)
    g:set_blocked(2, 2, true)
    local p = assert(g:find_path(1, 1, 3, 1, { trace = true, visited = true, algorithm = "astar" }))
    assert.same({
      { node = 1, g = 0, f = 2, x = 1, y = 1 },
      { node = 2, parent = 1, g = 1, f = 2, x = 2, y = 1 },
      { node = 3, parent = 2, g = 2, f = 2, x = 3, y = 1 },
    }, p.trace)
    assert.same({ 1, 2, 3 }, p.visited)
    assert.same({ 1, 2, 3 }, p.nodes)
    assert.same({ { 1, 1 }, { 2, 1 }, { 3, 1 } }, p.xy)
    assert.equal(3, p.expanded)
    assert.equal(0, p.reopened)
    assert.equal(3, p.generated)
    p = assert(g:find_path(1, 1, 3, 1))
    assert.is_nil(p.trace)
    assert.is_nil(p.visited)
    -- trace entries agree with the cells they name
    p = assert(astar.grid_from_string("...\n.#.\n...", nil, { diagonal = "always" })
      :find_path(1, 3, 3, 1, { trace = true, visited = true }))
    assert.equal(#p.trace, #p.visited)
    assert.equal(#p.trace, p.expanded)
    for i, t in ipairs(p.trace) do
      assert.equal(p.visited[i], t.node)
      assert.equal((t.y - 1) * 3 + t.x, t.node)
    end
  end)

  it("tie_break high_g dives, fifo fills #pure", function()
    local g = astar.grid(3, 3, { diagonal = "never" })
    local p = assert(g:find_path(1, 1, 3, 3, { visited = true, algorithm = "astar" }))
    assert.equal(4, p.cost)
    assert.equal(5, p.expanded) -- only the path
    assert.same(p.nodes, p.visited)
    p = assert(g:find_path(1, 1, 3, 3, { tie_break = "fifo", visited = true, algorithm = "astar" }))
    assert.equal(4, p.cost)
    assert.equal(9, p.expanded) -- every cell lies on a shortest path
    for i = 2, 9 do -- breadth-first: by distance from the start
      local a, b = p.visited[i - 1] - 1, p.visited[i] - 1
      assert.is_true(a % 3 + math.floor(a / 3) <= b % 3 + math.floor(b / 3))
    end
    assert.equal(9, p.visited[9])
  end)

  it("the three stop policies #pure", function()
    -- 2x2, 'always': the diagonal into the dear goal (10) is found first
    local g = astar.grid_from_string("..\n.T", { T = { cost = 10 } }, { diagonal = "always" })
    local function over(x, y) return x + y == 3 and 100 or 0 end -- overestimates the side cells
    local p = assert(g:find_path(1, 1, 2, 2, { stop = "first_hit" }))
    assert.equal(10 * D, p.cost)
    assert.same({ 1, 4 }, p.nodes)
    p = assert(g:find_path(1, 1, 2, 2, { stop = "expand" }))
    assert.equal(11, p.cost)
    assert.equal(3, #p.nodes)
    p = assert(g:find_path(1, 1, 2, 2, { stop = "expand", heuristic = over }))
    assert.equal(10 * D, p.cost)
    p = assert(g:find_path(1, 1, 2, 2, { stop = "optimal", heuristic = over }))
    assert.equal(11, p.cost)
    assert.equal(3, #p.nodes)
    p = assert(g:find_path(1, 1, 2, 2, { stop = "optimal", heuristic = over, tie_break = "fifo" }))
    assert.equal(11, p.cost)
    p = assert(g:find_path(1, 1, 2, 2, { heuristic = over, weight = 0 })) -- f = g: Dijkstra
    assert.equal(11, p.cost)
  end)

  it("weight trades cost for expansions #pure", function()
    local g = astar.grid_from_string(table.concat({
      "..........",
      ".#######..",
      ".......#..",
      "######.#..",
      "..........",
    }, "\n"))
    local best = assert(g:find_path(1, 3, 10, 5))
    local dijkstra = assert(g:find_path(1, 3, 10, 5, { weight = 0 }))
    assert.equal(best.cost, dijkstra.cost)
    assert.is_true(dijkstra.expanded >= best.expanded)
    for _, w in ipairs({ 1.5, 3, 10 }) do
      local p = assert(g:find_path(1, 3, 10, 5, { weight = w }))
      assert.is_true(p.cost >= best.cost - 1e-12 and p.cost <= w * best.cost + 1e-9)
    end
  end)
end)

-- ---------------------------------------------------------------------------
-- Random grids against a plain Dijkstra over the move rules.
-- ---------------------------------------------------------------------------

-- A random world: a grid and its description in plain Lua tables.  `cheap`
-- allows cell costs and factors below 1 (the default heuristic is then
-- inadmissible).
local function random_world(seed, cheap)
  return worlds.random_grid(seed, { width = { 3, 11 }, height = { 2, 9 }, rule = "drawn", density = 0.35,
    costed = 0.35, costs = cheap and { 0, 0.25, 0.5, 1, 2, 3 } or { 1, 1.5, 2, 3, 4.25 },
    tagged = 0.3, tags = { "mud", "lava", "ice", "grass" } })
end

-- A random query: per-query tag factors, penalty and forbid fields, maybe a
-- cost callback.  Penalties are >= 0 except (when `cheap`) small negative
-- ones on untagged cells of cost >= 1, which keep every step >= 0.
local function random_query(world, cheap)
  local r = world.r
  local q = {}
  if r() < 0.7 then
    q.costs = cheap and { mud = r() < 0.5 and 0.5 or 3, lava = false, ice = 0, rock = 2 }
      or { mud = 3, lava = r() < 0.5 and false or 1.5, ice = 1.25, rock = false }
  end
  if r() < 0.5 then
    q.penalty, q.pen = worlds.random_field(world, function(id)
      local v = 0
      if r() < 0.4 then v = ({ 0.5, 1, 2.75, 6 })[r(1, 4)] end
      if cheap and not world.tag[id] and world.cost[id] >= 1 and r() < 0.3 then v = -0.5 end
      return v
    end)
    if r() < 0.6 then q.penalty_scale = ({ 0, 0.5, 1, 2 })[r(1, 4)] end
    if cheap then q.penalty_scale = math.min(q.penalty_scale or 1, 1) end
  end
  if r() < 0.4 then
    q.forbid, q.fb = worlds.random_field(world, function() return r() < 0.12 and ({ 1, -2, 0.5 })[r(1, 3)] or 0 end)
  end
  if r() < 0.3 then
    local salt = r(0, 4)
    q.cost = function(x1, y1, x2, y2, c)
      local k = (x1 * 3 + y1 * 5 + x2 * 7 + y2 * 11 + salt) % 6
      if k == 0 then return false end
      if k == 1 then return c * 2 end
      if k == 2 then return c + 0.5 end
      if k == 3 and cheap then return c * 0.5 end
      return c
    end
  end
  return q
end

local oracle = require("grid_oracle") -- the rules in plain Lua
local step_cost, dijkstra = oracle.step, oracle.dijkstra

-- Every step of the path is allowed by the rule in force and the step costs
-- computed here sum to path.cost.
local function assert_valid(world, q, p, sx, sy, gx, gy, label)
  assert_shape(world.g, p, sx, sy, gx, gy)
  local sum = 0
  for i = 2, #p.xy do
    local a, b = p.xy[i - 1], p.xy[i]
    local c = step_cost(world, q, a[1], a[2], b[1], b[2])
    assert.is_truthy(c, ("%s: step %d (%d,%d)->(%d,%d) is not allowed"):format(label, i, a[1], a[2], b[1], b[2]))
    sum = sum + c
  end
  assert.is_true(close(sum, p.cost), ("%s: steps sum to %.17g, cost says %.17g"):format(label, sum, p.cost))
end

local function random_cell(world)
  return world.r(1, world.w), world.r(1, world.h)
end

describe("random grids against a plain Dijkstra", function()
  it("admissible worlds: the default heuristic with stop = expand gives the optimum #pure", function()
    local queries, reachable, rules, features = 0, 0, {}, {}
    for seed = 1, 60 do
      local world = random_world(seed, false)
      rules[world.rule] = true
      for _ = 1, 3 do
        local q = random_query(world, false)
        for _, k in ipairs({ "costs", "penalty", "penalty_scale", "forbid", "cost" }) do
          if q[k] then features[k] = (features[k] or 0) + 1 end
        end
        local sx, sy = random_cell(world)
        local dist = dijkstra(world, q, sx, sy)
        for _ = 1, 3 do
          local gx, gy = random_cell(world)
          local want = dist[(gy - 1) * world.w + gx]
          local hs = { false, "euclidean", "chebyshev", "zero" }
          if world.rule == "never" then hs[#hs + 1] = "manhattan" else hs[#hs + 1] = "octile" end
          for _, h in ipairs(hs) do
            for _, tie in ipairs({ "high_g", "fifo" }) do
              local label = ("seed %d (%s) (%d,%d)->(%d,%d) h=%s %s"):format(seed, world.rule, sx, sy, gx, gy,
                tostring(h), tie)
              local p, why = world.g:find_path(sx, sy, gx, gy, worlds.options(q, { heuristic = h or nil, tie_break = tie }))
              queries = queries + 1
              if want == math.huge then
                assert.is_nil(p, label)
                assert.equal("unreachable", why)
              else
                reachable = reachable + 1
                assert.is_true(close(want, p.cost), ("%s: %.17g vs %.17g"):format(label, p.cost, want))
                assert_valid(world, q, p, sx, sy, gx, gy, label)
              end
            end
          end
        end
      end
    end
    assert.equal(5400, queries)
    assert.is_true(reachable > 2500, "too few reachable pairs: " .. reachable)
    for _, rule in ipairs(RULES) do assert.is_true(rules[rule], rule) end
    for _, k in ipairs({ "costs", "penalty", "penalty_scale", "forbid", "cost" }) do
      assert.is_true((features[k] or 0) >= 30, k .. " in too few queries")
    end
  end)

  it("any costs (0, below 1, negative penalties): zero heuristic, and stop = optimal with any heuristic #pure", function()
    local count, reachable = 0, 0
    for seed = 1001, 1050 do
      local world = random_world(seed, true)
      for _ = 1, 3 do
        local q = random_query(world, true)
        local sx, sy = random_cell(world)
        local dist = dijkstra(world, q, sx, sy)
        local hv = {}
        for i = 1, world.w * world.h do hv[i] = world.r() * 40 end
        local wild = function(x, y) return hv[(y - 1) * world.w + x] end
        for _ = 1, 3 do
          local gx, gy = random_cell(world)
          local want = dist[(gy - 1) * world.w + gx]
          for _, o in ipairs({ { heuristic = "zero" }, { stop = "optimal" }, { stop = "optimal", heuristic = wild },
            { stop = "optimal", heuristic = wild, tie_break = "fifo" }, { stop = "optimal", heuristic = "manhattan" } }) do
            local label = ("seed %d (%s) (%d,%d)->(%d,%d) %s %s"):format(seed, world.rule, sx, sy, gx, gy,
              tostring(o.stop), tostring(o.heuristic))
            local p, why = world.g:find_path(sx, sy, gx, gy, worlds.options(q, o))
            count = count + 1
            if want == math.huge then
              assert.is_nil(p, label)
              assert.equal("unreachable", why)
            else
              reachable = reachable + 1
              assert.is_true(close(want, p.cost), ("%s: %.17g vs %.17g"):format(label, p.cost, want))
              assert_valid(world, q, p, sx, sy, gx, gy, label)
            end
          end
        end
      end
    end
    assert.equal(2250, count)
    assert.is_true(reachable > 1000, "too few reachable pairs: " .. reachable)
  end)

  it("first_hit, weights and inadmissible expand give valid paths no cheaper than the optimum #pure", function()
    local count = 0
    for seed = 2001, 2040 do
      local world = random_world(seed, seed % 2 == 0)
      local q = random_query(world, seed % 2 == 0)
      local sx, sy = random_cell(world)
      local dist = dijkstra(world, q, sx, sy)
      for _ = 1, 4 do
        local gx, gy = random_cell(world)
        local want = dist[(gy - 1) * world.w + gx]
        for _, o in ipairs({ { stop = "first_hit" }, { weight = 3 }, { weight = 0 },
          { heuristic = function() return world.r() * 50 end } }) do
          local label = ("seed %d (%d,%d)->(%d,%d)"):format(seed, sx, sy, gx, gy)
          local p = world.g:find_path(sx, sy, gx, gy, worlds.options(q, o))
          if want == math.huge then
            assert.is_nil(p, label)
          else
            count = count + 1
            assert.is_true(p.cost >= want - 1e-9 * math.max(1, want), label)
            if o.weight == 0 then assert.is_true(close(want, p.cost), label) end
            if o.weight == 3 and seed % 2 == 1 then assert.is_true(p.cost <= 3 * want + 1e-9, label) end
            assert_valid(world, q, p, sx, sy, gx, gy, label)
          end
        end
      end
    end
    assert.is_true(count > 200, "too few reachable pairs: " .. count)
  end)
end)
