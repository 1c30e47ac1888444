-- Random worlds for the specs that check the C search against an oracle: a
-- graph or a grid built from a seeded generator, its description in plain
-- Lua tables (what the oracles read), and the options a world's modifiers
-- stand for.  A seed gives the same world on every Lua (helpers.rng).
--
-- The specs want different worlds (tags, parallel edges, costs below 1 ...),
-- so each generator takes a flavour; a flavour only chooses values, the
-- order of the draws is fixed here, so a seed and a flavour always give the
-- same world.
local astar = require("astar")
local rng = require("helpers").rng

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }

local worlds = {}

--- worlds.RULES: the four diagonal rules, in the order random_grid picks them.
worlds.RULES = RULES

--- random_graph(seed, n, m, flavour) -> w = { g, n, pos, edges, disabled, r }
-- n nodes at integer positions (pos[i] = { x, y }), m random edges from a to
-- b (edges[id] = { a, b, cost, tag }), then some disabled nodes
-- (disabled[i] = true).  r is the generator, for the spec's further draws.
-- Flavour fields (all optional):
--   rng         a generator constructor rng(seed) (default helpers.rng)
--   span        positions in 0..span (default 10)
--   coincident  chance that a node sits on the one before it
--   cost        function(r, d) -> the cost of an edge whose ends are d
--               apart (default 1)
--   tagged, tags  the chance that an edge has a tag, the tags to pick from
--   twin        chance of a reverse edge b -> a of the same cost
--   parallel    function(r, d, c) -> the cost of a parallel edge a -> b, or
--               nil for none
--   disabled    chance that a node is disabled
function worlds.random_graph(seed, n, m, flavour)
  local f = flavour or {}
  local r = (f.rng or rng)(seed)
  local span = f.span or 10
  local g = astar.graph()
  local w = { g = g, n = n, pos = {}, edges = {}, disabled = {}, r = r }
  local pos, edges = w.pos, w.edges
  for i = 1, n do
    local x, y = r(0, span), r(0, span)
    if f.coincident and i > 1 and r() < f.coincident then x, y = pos[i - 1][1], pos[i - 1][2] end
    pos[i] = { x, y }
    g:add_node(x, y)
  end
  for _ = 1, m do
    local a, b = r(1, n), r(1, n)
    local d = math.sqrt((pos[a][1] - pos[b][1]) ^ 2 + (pos[a][2] - pos[b][2]) ^ 2)
    local c = f.cost and f.cost(r, d) or 1
    local tag = f.tagged and r() < f.tagged and f.tags[r(1, #f.tags)] or nil
    local id = g:add_edge(a, b, c, tag)
    edges[id] = { a, b, c, tag }
    if f.twin and r() < f.twin then
      id = g:add_edge(b, a, c)
      edges[id] = { b, a, c }
    end
    local c2 = f.parallel and f.parallel(r, d, c)
    if c2 then
      id = g:add_edge(a, b, c2)
      edges[id] = { a, b, c2 }
    end
  end
  for i = 1, n do
    if f.disabled and r() < f.disabled then
      w.disabled[i] = true
      g:set_enabled(i, false)
    end
  end
  return w
end

--- random_grid(seed, flavour) -> world = { g, w, h, rule, blocked, cost,
-- tag, r }: a grid and its cells by id = (y - 1) * w + x (blocked[id],
-- cost[id], tag[id]), the form spec/grid_oracle.lua reads.  Flavour fields:
--   width, height  { lo, hi }: the size range
--   rule        "drawn": the diagonal rule is drawn; otherwise it is
--               RULES[seed % 4 + 1] (every rule in any four consecutive seeds)
--   density     each cell is blocked with one chance per world, drawn in
--               0..density
--   costed, costs  the chance that a cell's cost is picked from costs
--               rather than 1 (no costs: every cell costs 1)
--   tagged, tags   the chance that a cell has a tag, the tags (none: no tags)
function worlds.random_grid(seed, flavour)
  local f = flavour
  local r = rng(seed)
  local w, h = r(f.width[1], f.width[2]), r(f.height[1], f.height[2])
  local rule = f.rule == "drawn" and RULES[r(1, 4)] or RULES[seed % 4 + 1]
  local g = astar.grid(w, h, { diagonal = rule })
  local world = { g = g, w = w, h = h, rule = rule, blocked = {}, cost = {}, tag = {}, r = r }
  local density = r() * f.density
  for y = 1, h do
    for x = 1, w do
      local id = (y - 1) * w + x
      world.blocked[id] = r() < density
      world.cost[id] = f.costs and r() < f.costed and f.costs[r(1, #f.costs)] or 1
      world.tag[id] = f.tags and r() < f.tagged and f.tags[r(1, #f.tags)] or nil
      if world.blocked[id] then g:set_blocked(x, y, true) end
      if world.cost[id] ~= 1 then g:set_cost(x, y, world.cost[id]) end
      if world.tag[id] then g:set_tag(x, y, world.tag[id]) end
    end
  end
  return world
end

--- random_field(world, value) -> field, values: a field of the world's grid
-- with value(id) at each cell, row by row, and the same values by cell id
-- (for the oracle).
function worlds.random_field(world, value)
  local field, values = astar.field(world.g), {}
  for y = 1, world.h do
    for x = 1, world.w do
      local id = (y - 1) * world.w + x
      local v = value(id)
      values[id] = v
      field:set(x, y, v)
    end
  end
  return field, values
end

--- options(mods, extra) -> the find_path (or query) options for a world's
-- modifiers (costs, cost, penalty, penalty_scale, forbid; the oracle's own
-- fields are left out) and the extra options.
function worlds.options(mods, extra)
  local o = { costs = mods.costs, cost = mods.cost, penalty = mods.penalty,
    penalty_scale = mods.penalty_scale, forbid = mods.forbid }
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

--- chain() -> the smallest interesting graph: 1 -> 2 -> 3 (cost 1 each)
-- and a costly shortcut 1 -> 3 (cost 5, tag "shortcut", edge 3).
function worlds.chain()
  local g = astar.graph()
  for i = 1, 3 do g:add_node(i, 0) end
  g:add_edge(1, 2, 1)
  g:add_edge(2, 3, 1)
  g:add_edge(1, 3, 5, "shortcut")
  return g
end

--- graph_snapshot(g), grid_snapshot(g) -> everything a graph or grid holds,
-- as a string (costs with 17 digits): a refused mutation changes none of it.
function worlds.graph_snapshot(g)
  local t = { g:node_count(), g:edge_count() }
  for n = 1, g:node_count() do
    local x, y, z = g:position(n)
    t[#t + 1] = ("%s,%s,%s,%s"):format(x, y, z, tostring(g:is_enabled(n)))
  end
  for e = 1, g:edge_count() do
    local a, b, c, tag = g:edge(e)
    t[#t + 1] = ("%s>%s:%.17g:%s"):format(a, b, c, tostring(tag))
  end
  return table.concat(t, " ")
end

function worlds.grid_snapshot(g)
  local t = { g:to_string(), g:diagonal() }
  local w, h = g:size()
  for y = 1, h do
    for x = 1, w do
      t[#t + 1] = ("%s:%.17g:%s"):format(tostring(g:is_blocked(x, y)), g:get_cost(x, y),
        tostring(g:get_tag(x, y)))
    end
  end
  return table.concat(t, " ")
end

--- with(o, extra) -> a copy of the options o with the extra fields.
function worlds.with(o, extra)
  local t = {}
  for k, v in pairs(o) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

return worlds
