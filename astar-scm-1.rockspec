package = "astar"
version = "scm-1"
rockspec_format = "3.0"
source = {
   url = "git+file:///work/main",
}
description = {
   summary = "A* pathfinding with a C core: graphs, grids, Lua heuristics, per-query costs",
   detailed = [[
astar finds shortest paths on directed weighted multigraphs and on grids,
with built-in or Lua heuristics, three stop policies (first hit, expand,
guaranteed optimal), per-query cost modifiers and step tables.  The solver
is C99 with no Lua dependency; astar.core binds it to Lua.
]],
   license = "MIT",
}
dependencies = {
   "lua >= 5.1",
}
build = {
   type = "builtin",
   modules = {
      astar = "lua/astar.lua",
      ["astar.maps"] = "lua/astar/maps.lua",
      ["astar.describe"] = "lua/astar/describe.lua",
      ["astar.waypoints"] = "lua/astar/waypoints.lua",
      ["astar.svg"] = "lua/astar/svg.lua",
      ["astar.core"] = {
         sources = { "src/util.c", "src/graph.c", "src/grid.c", "src/search.c", "src/heuristics.c",
                     "src/components.c",
                     "src/lastar.c" },
         incdirs = { "src" },
         libraries = { "m" },
      },
   },
}
