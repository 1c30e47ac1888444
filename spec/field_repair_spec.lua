-- field:update() repairs a distance field after its penalty or forbid field
-- changed (issue 17, part 2), instead of computing it again (unless most of
-- the field hangs on the change): an oracle over
-- random sequences of edits to the grid and to both option fields, against
-- a fresh grid:distances on the final map, on every diagonal rule, hex
-- grids and both directions.
local astar = require("astar")
local worlds = require("worlds")

local same_as_fresh = require("helpers").same_field

-- One random edit: of the grid, or of the penalty or forbid field (a cell,
-- a disc, or rarely a fill, which is a whole-grid change).
local function edit(g, w, h, pen, forbid, r)
  local x, y, k = r(1, w), r(1, h), r(1, 10)
  if k == 1 then g:set_blocked(x, y, not g:is_blocked(x, y))
  elseif k == 2 then g:set_cost(x, y, ({ 0.5, 1, 2, 3.25 })[r(1, 4)])
  elseif k == 3 then g:set_tag(x, y, ({ "mud", "road", "ice" })[r(1, 3)]) -- ice: new mid-sequence
  elseif k <= 6 and pen then pen:set(x, y, r(0, 4) * 0.75)
  elseif k == 7 and pen then pen:add_disc(x, y, r(0, 2), r(-1, 2) * 0.5)
  elseif k <= 9 and forbid then forbid:set(x, y, r() < 0.5 and 1 or 0)
  elseif k == 10 and pen and r() < 0.3 then pen:fill(r(0, 2))
  elseif pen then pen:set(x, y, 0) end
end

local function oracle(seeds, make, size)
  local repaired, rebuilt, checks = 0, 0, 0
  for seed = 1, seeds do
    local g, w, h, r, label0 = make(seed)
    local pen = seed % 3 ~= 2 and astar.field(g, 0) or nil
    local forbid = seed % 3 ~= 1 and astar.field(g, 0) or nil
    local opts = { penalty = pen, forbid = forbid, size = size and size(seed) }
    if seed % 4 == 0 then opts.costs = { mud = 2.5, road = false, ice = false } end
    if seed % 5 == 0 then opts.penalty_scale = 2 end
    if seed % 2 == 0 then opts.direction = "from_sources" end
    local sources = {}
    for i = 1, r(1, 3) do sources[i] = { r(1, w), r(1, h) } end
    local f = g:distances(sources, opts)
    for round = 1, 10 do
      for _ = 1, r(1, 3) do edit(g, w, h, pen, forbid, r) end
      local label = ("%s seed %d round %d"):format(label0, seed, round)
      local how = f:update()
      if how == "repaired" then repaired = repaired + 1 elseif how == "rebuilt" then rebuilt = rebuilt + 1 end
      same_as_fresh(f, g:distances(sources, opts), w, h, label)
      checks = checks + 1
    end
  end
  return repaired, rebuilt, checks
end

describe("field:update after penalty and forbid changes", function()
  it("repairs, equal to a fresh distances() (every rule, both directions, tags that appear)", function()
    local rules = {}
    local repaired, rebuilt, checks = oracle(32, function(seed)
      local world = worlds.random_grid(seed, { width = { 6, 16 }, height = { 5, 14 }, density = 0.3,
        costed = 0.2, costs = { 0.5, 2, 3 }, tagged = 0.15, tags = { "mud", "road" } })
      rules[world.rule] = true
      return world.g, world.w, world.h, world.r, world.rule
    end)
    assert.equal(32 * 10, checks)
    -- only a fill (a whole-field change) or a long run of changes rebuilds
    assert.is_true(repaired > 220, ("repaired %d, rebuilt %d"):format(repaired, rebuilt))
    for _, rule in ipairs(worlds.RULES) do assert.is_true(rules[rule], rule) end
  end)

  it("repairs for units of size 2 and 3, equal to a fresh distances() (every rule, hex)", function()
    local LAYOUTS = { "odd_r", "even_r", "odd_q", "even_q" }
    local repaired, rebuilt, checks = oracle(40, function(seed)
      if seed % 5 == 0 then
        local r = require("helpers").rng(seed * 11 + 3)
        local w, h = r(8, 16), r(7, 14)
        local hx = astar.hex(w, h, { layout = LAYOUTS[seed % 4 + 1] })
        for y = 1, h do
          for x = 1, w do
            if r() < 0.12 then hx:set_blocked(x, y, true) end
            if r() < 0.2 then hx:set_cost(x, y, ({ 0.5, 2, 3 })[r(1, 3)]) end
          end
        end
        return hx, w, h, r, "hex " .. hx:layout()
      end
      local world = worlds.random_grid(seed, { width = { 8, 18 }, height = { 7, 16 }, density = 0.15,
        costed = 0.2, costs = { 0.5, 2, 3 }, tagged = 0.15, tags = { "mud", "road" } })
      return world.g, world.w, world.h, world.r, world.rule
    end, function(seed) return 2 + seed % 2 end)
    assert.equal(40 * 10, checks)
    assert.is_true(repaired > 200, ("repaired %d, rebuilt %d"):format(repaired, rebuilt))
  end)

  it("repairs on hex grids, equal to a fresh distances()", function()
    local LAYOUTS = { "odd_r", "even_r", "odd_q", "even_q" }
    local repaired, _, checks = oracle(16, function(seed)
      local r = require("helpers").rng(seed * 7 + 1)
      local w, h = r(6, 14), r(5, 12)
      local hx = astar.hex(w, h, { layout = LAYOUTS[seed % 4 + 1] })
      for y = 1, h do
        for x = 1, w do
          if r() < 0.25 then hx:set_blocked(x, y, true) end
          if r() < 0.2 then hx:set_cost(x, y, ({ 0.5, 2, 3 })[r(1, 3)]) end
        end
      end
      return hx, w, h, r, "hex " .. hx:layout()
    end)
    assert.equal(16 * 10, checks)
    assert.is_true(repaired > 110, "repaired " .. repaired)
  end)

  it("a penalty change repairs; the step into the changed cell pays the new penalty", function()
    local g = astar.grid(40, 40)
    local pen = astar.field(g, 0)
    local f = g:distances({ { 1, 1 } }, { penalty = pen })
    pen:set(30, 30, 10) -- toward the sources: the step into (30, 30) pays it
    assert.is_true(f:stale())
    assert.equal("repaired", f:update())
    assert.is_true(f:get(31, 31) > 30 * math.sqrt(2)) -- a detour now: cheaper than the penalty
    same_as_fresh(f, g:distances({ { 1, 1 } }, { penalty = pen }), 40, 40, "set")
    pen:set(1, 1, 10) -- every route ends with the step into (1, 1): afresh is cheaper
    assert.equal("rebuilt", f:update())
    assert.equal(11, f:get(2, 1))
    pen:fill(1) -- every cell: more than a repair is worth
    assert.equal("rebuilt", f:update())
    same_as_fresh(f, g:distances({ { 1, 1 } }, { penalty = pen }), 40, 40, "fill")
    local forbid = astar.field(g, 0)
    local ff = g:distances({ { 1, 1 } }, { forbid = forbid })
    for y = 1, 12 do forbid:set(20, y, 1) end -- a field remembers its last 16 changes
    assert.equal("repaired", ff:update())
    same_as_fresh(ff, g:distances({ { 1, 1 } }, { forbid = forbid }), 40, 40, "wall")
    assert.is_true(ff:get(21, 1) > 20) -- around the wall's end
    for y = 1, 17 do forbid:set(30, y, 1) end -- further back than that: computed again
    assert.equal("rebuilt", ff:update())
    same_as_fresh(ff, g:distances({ { 1, 1 } }, { forbid = forbid }), 40, 40, "long wall")
  end)
end)
