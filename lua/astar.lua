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

--- The cost of a diagonal grid step: sqrt(2) rounded to a multiple of 2^-32
-- (off by 1.1e-11), so that sums of grid steps are exact and equal-length
-- routes tie exactly.  Use it in Lua octile heuristics to stay consistent.
astar.DIAGONAL = core.DIAGONAL

--- astar.graph() -> a new empty directed weighted multigraph.
astar.graph = core.graph

--- astar.grid(width, height [, { diagonal = rule }]) -> a new open grid.
astar.grid = core.grid

--- astar.grid_from_string(text [, legend [, { diagonal = rule }]]) -> grid.
astar.grid_from_string = core.grid_from_string

--- astar.field(grid [, value]) -> a per-cell number array for that grid.
astar.field = core.field

--- Moving AI benchmark maps: astar.maps.load(path), astar.maps.scenarios(path).
astar.maps = require("astar.maps")

return astar
