-- A small waypoint level: rooms and corridors as a graph with positions.
-- Prints the path a guard takes to the alarm, and the seed-003-style step
-- table of each expansion for two heuristics (Dijkstra and Euclidean), so
-- the difference in fill is visible.
--
--   make demo            (or: lua5.4 examples/waypoints.lua with LUA_PATH/LUA_CPATH set)
local astar = require("astar")

--   guard post G ---- hall H ------ door D ---- alarm A
--        |              |                          |
--     corridor C1 --- store S --- corridor C2 -----+
local places = {
  { "G", 0, 0 }, { "H", 4, 0 }, { "D", 8, 0 }, { "A", 12, 0 },
  { "C1", 0, 4 }, { "S", 5, 4 }, { "C2", 10, 4 },
}
local g = astar.graph()
local id, name = {}, {}
for _, p in ipairs(places) do
  local n = g:add_node(p[2], p[3])
  id[p[1]], name[n] = n, p[1]
end

local function dist(a, b)
  local ax, ay = g:position(id[a])
  local bx, by = g:position(id[b])
  return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- corridors cost their length; the door is slow to open (x1.5)
for _, e in ipairs({ { "G", "H" }, { "G", "C1" }, { "H", "S" }, { "C1", "S" }, { "S", "C2" }, { "C2", "A" } }) do
  g:connect(id[e[1]], id[e[2]], dist(e[1], e[2]))
end
g:connect(id.H, id.D, dist("H", "D") * 1.5, "door")
g:connect(id.D, id.A, dist("D", "A"))

local function show_path(p)
  local out = {}
  for i, n in ipairs(p.nodes) do out[i] = name[n] end
  return table.concat(out, " -> ")
end

-- One line per expansion: "[i] N: X(parent, g, f)" as in the CS4386 lecture on Dijkstra and A*.
local function step_table(p)
  for i, t in ipairs(p.trace) do
    print(string.format("  [%d] N: %s(%s, %.2f, %.2f)", i, name[t.node],
      t.parent and name[t.parent] or "-", t.g, t.f))
  end
end

for _, h in ipairs({ "zero", "euclidean" }) do
  local p = assert(g:find_path(id.G, id.A, { heuristic = h, trace = true }))
  print(string.format("heuristic %-9s  path %s  cost %.2f  expanded %d", h, show_path(p), p.cost, p.expanded))
  step_table(p)
end

-- the same query while the door is locked, for this query only
local p = assert(g:find_path(id.G, id.A, { costs = { door = false } }))
print(string.format("door locked        path %s  cost %.2f", show_path(p), p.cost))
