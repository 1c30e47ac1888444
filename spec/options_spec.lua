-- Search options (src/lopts.c): no option may be ignored on open grids.
--
-- An open grid (no cell costs) takes the core's fast path whenever the
-- query allows it; the same query on a grid with a cost layer takes the
-- general path.  For every option the module knows (core._options, the
-- option table itself), a sample that changes the answer must change it the
-- same way on both: an option the fast path silently dropped would differ.
-- A new option without a sample here fails, so none is added unchecked.
local astar = require("astar")
local core = require("astar.backend").core -- astar.core, or the pure-Lua backend (make test-pure)

local W, H = 12, 9

-- The same W x H world twice: `open` as it is, `general` with two more rows
-- below, a wall and then a row of cost 5 that no search can reach (cell ids
-- of the first H rows are the same in both).
local function worlds()
  local open, general = astar.grid(W, H), astar.grid(W, H + 2)
  for x = 1, W do
    general:set_blocked(x, H + 1, true)
    general:set_cost(x, H + 2, 5)
  end
  for _, g in ipairs({ open, general }) do
    g:set_tag(6, 5, "mud") -- on the straight route from (1, 5) to (W, 5)
    g:set_tag(7, 5, "mud")
    g:set_blocked(4, 2, true)
  end
  return open, general
end

local function field_of(g, f)
  local fld = astar.field(g)
  for y = 1, H do
    for x = 1, W do fld:set(x, y, f(x, y)) end
  end
  return fld
end

-- What a find_path answer says, comparable across the two worlds.
local function answer(p, why, stats)
  if not p then return { why = why, expanded = stats.expanded } end
  return {
    cost = p.cost, nodes = p.nodes, expanded = p.expanded, partial = p.partial, reason = p.reason,
    trace = p.trace and #p.trace, visited = p.visited and #p.visited, points = p.points,
    length = p.length,
  }
end

-- Samples: name -> function(g) returning the options with the option, the
-- baseline without it (what the option is compared against) and, for a
-- path search where the straight route (1, 5) -> (W, 5) does not show the
-- option, other ends.  The modifiers serve both kinds of search.
local modifier_samples = {
  costs = function() return { costs = { mud = 9 } }, {} end,
  cost = function() return { cost = function(_, _, _, _, c) return 2 * c end }, {} end,
  penalty = function(g)
    return { penalty = field_of(g, function(x) return x == 8 and 3 or 0 end) }, {}
  end,
  penalty_scale = function(g)
    local f = field_of(g, function(x) return x == 8 and 3 or 0 end)
    return { penalty = f, penalty_scale = 4 }, { penalty = f }
  end,
  forbid = function(g)
    return { forbid = field_of(g, function(x, y) return (x == 9 and y > 1) and 1 or 0 end) }, {}
  end,
  max_cost = function() return { max_cost = 3 }, {} end,
  -- a 2 x 2 unit cannot stand in the last column or row (nor, in the
  -- second world, on the row above the wall)
  size = function() return { size = 2 }, {} end,
}

local function with_samples(t)
  for k, v in pairs(modifier_samples) do t[k] = v end
  return t
end

local path_samples = with_samples({
  heuristic = function() return { heuristic = "zero" }, {} end,
  weight = function() return { weight = 0.5 }, {} end,
  stop = function() return { stop = "first_hit", heuristic = "zero" }, { heuristic = "zero" } end,
  tie_break = function() return { tie_break = "fifo" }, {}, { 1, 1, W, H } end,
  max_expansions = function() return { max_expansions = 4 }, {} end,
  trace = function() return { trace = true }, {} end,
  visited = function() return { visited = true }, {} end,
  partial = function() return { partial = true, max_expansions = 4 }, { max_expansions = 4 } end,
  -- compared on the open world only (below): cell costs rule jump point
  -- search out
  algorithm = function() return { algorithm = "jps" }, { algorithm = "astar" } end,
  smooth = function() return { smooth = true }, {}, { 1, 1, W, H } end,
  any_angle = function() return { any_angle = true }, {}, { 1, 1, W, H } end,
  -- (4, 2) is blocked: with "escape" the path leaves it for (4, 1)
  start_blocked = function() return { start_blocked = "escape" }, {}, { 4, 2, W, H } end,
})

-- o with the other entries of t added.
local function plus(o, t)
  local c = {}
  for k, v in pairs(o) do c[k] = v end
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- A max_cost no path reaches: it changes no answer, and sends a query down
-- the general loop (the fast path honours no max_cost).
local GENERAL = { max_cost = 1e300 }

-- grid:distances: its fast path is the forward direction
local distance_samples = with_samples({
  direction = function() return { direction = "to_sources", costs = { mud = 9 } }, { costs = { mud = 9 } } end,
})

local function with_direction(o, dir)
  local t = { direction = dir }
  for k, v in pairs(o) do t[k] = v end
  return t
end

-- The distances of the first H rows, and where next_step leads from each.
local function distance_answer(g, o)
  local f = g:distances({ { 1, 5 }, { W, 1 } }, o)
  local out = {}
  for y = 1, H do
    for x = 1, W do
      local nx, ny = f:next_step(x, y)
      out[#out + 1] = ("%s:%s,%s"):format(f:get(x, y), tostring(nx), tostring(ny))
    end
  end
  return table.concat(out, " ")
end

describe("options", function()
  local names = {}
  for name in pairs(core._options()) do names[#names + 1] = name end
  table.sort(names)

  it("are all in the option table, and every one has a sample here #pure", function()
    assert.is_true(#names >= 15)
    for _, name in ipairs(names) do
      local o = core._options()[name]
      if o.path then assert.is_function(path_samples[name], "no path sample for option " .. name) end
      if o.distances then assert.is_function(distance_samples[name], "no distances sample for option " .. name) end
    end
  end)

  for _, name in ipairs(names) do
    local o = core._options()[name]
    if o.path and name ~= "algorithm" then
      it(name .. " changes find_path on open grids as on grids with cell costs", function()
        local open, general = worlds()
        local got, angle = {}, false
        for i, g in ipairs({ open, general }) do
          local with, without, ends = path_samples[name](g)
          ends = ends or { 1, 5, W, 5 }
          -- A* on both (cell costs rule jump point search out); any_angle
          -- is its own algorithm
          local A = with.any_angle and {} or { algorithm = "astar" }
          local a = answer(g:find_path(ends[1], ends[2], ends[3], ends[4], plus(with, A)))
          local b = answer(g:find_path(ends[1], ends[2], ends[3], ends[4], plus(without, A)))
          assert.are_not.same(a, b) -- the sample does change something
          -- any_angle's fast mode (open grids) counts the cell search's expansions
          if with.any_angle then a.expanded = nil end
          got[i] = a
          angle = with.any_angle
        end
        if angle then
          -- uniform costs take the fast mode (the search's path pulled
          -- taut), cell costs Theta*: the same ends, lengths within the fast
          -- mode's bound of Theta*'s, and the same change to the plain path
          assert.same(got[2].points[1], got[1].points[1])
          assert.same(got[2].points[#got[2].points], got[1].points[#got[1].points])
          assert.is_true(got[1].cost <= got[2].cost * 1.05 and got[2].cost <= got[1].cost * 1.05)
        else
          assert.same(got[2], got[1])
        end
      end)
      it(name .. " changes jump point search's fast loop as its general one", function()
        local open = worlds()
        local with, _, ends = path_samples[name](open)
        ends = ends or { 1, 5, W, 5 }
        local J = { algorithm = "jps" }
        if with.max_cost or not pcall(open.find_path, open, 1, 1, 2, 2, plus(with, J)) then
          -- max_cost is the lever itself; modifiers jps refuses (weight,
          -- fields, callbacks) take A*, checked above
          return
        end
        local fast = answer(open:find_path(ends[1], ends[2], ends[3], ends[4], plus(with, J)))
        local slow = answer(open:find_path(ends[1], ends[2], ends[3], ends[4], plus(plus(with, J), GENERAL)))
        assert.same(slow, fast)
      end)
    end
    if name == "algorithm" then
      it("algorithm changes find_path on open grids, in the fast loop as in the general one #pure", function()
        local open = worlds()
        local with, without = path_samples.algorithm(open)
        local a = answer(open:find_path(1, 5, W, 5, with))
        local b = answer(open:find_path(1, 5, W, 5, without))
        assert.are_not.same(a, b)
        assert.same(a, answer(open:find_path(1, 5, W, 5, plus(with, GENERAL))))
        assert.same(b, answer(open:find_path(1, 5, W, 5, plus(without, GENERAL))))
        assert.same(a, answer(open:find_path(1, 5, W, 5)))   -- auto: jps
      end)
    end
    if o.distances then
      it(name .. " changes distances on open grids as on grids with cell costs", function()
        local open, general = worlds()
        local got = {}
        for i, g in ipairs({ open, general }) do
          local with, without = distance_samples[name](g)
          if name ~= "direction" then
            with, without = with_direction(with, "from_sources"), with_direction(without, "from_sources")
          else
            without = with_direction(without, "from_sources")
          end
          local a, b = distance_answer(g, with), distance_answer(g, without)
          assert.are_not.equal(a, b)
          got[i] = a
        end
        assert.equal(got[2], got[1])
      end)
    end
  end
end)
