--- astar: A* pathfinding for Lua, with a C core.
--
-- This module is a thin facade over the C module `astar.core`: the types and
-- their methods (graph, grid, find_path ...) are C functions; what lives here
-- is what reads better in Lua than in C.  See README.md for the reference.
--
--   local astar = require("astar")
--   local g = astar.graph()
--   local a, b = g:add_node(0, 0), g:add_node(3, 4)
--   g:add_edge(a, b, 5)
--   local path = g:find_path(a, b)      --> path.cost == 5, path.nodes == {1, 2}

local core = require("astar.core")

local astar = {}

--- Version of the module (a string, e.g. "0.1.0").
astar.version = core.version

--- astar.graph() -> a new empty directed weighted multigraph.
astar.graph = core.graph

return astar
