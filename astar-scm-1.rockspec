package = "astar"
version = "scm-1"
rockspec_format = "3.0"
source = {
   url = "git+https://github.com/astar-lua/astar.git",
}
description = {
   summary = "A* pathfinding with a C core: graphs, grids, Lua heuristics, per-query costs",
   detailed = [[
astar finds shortest paths on directed weighted multigraphs and on grids for
Lua 5.1, 5.3, 5.4 and LuaJIT, with the solver in C99 (no Lua dependency, one
public header, embeddable in a C engine).  Built-in, Lua or precomputed
(landmark, cluster) heuristics; three stop policies, one of them optimal for
any heuristic; per-query cost modifiers (tag factors, cost callbacks, danger
fields) that leave the shared map untouched; time-sliced queries for a frame
budget; distance fields for crowds; line of sight and visibility fields;
Moving AI benchmark maps; waypoint graphs and SVG pictures.
]],
   homepage = "https://github.com/astar-lua/astar",
   issues_url = "https://github.com/astar-lua/astar/issues",
   maintainer = "the astar authors",
   license = "MIT",
   labels = { "pathfinding", "astar", "graph", "grid", "gamedev", "ai" },
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
         sources = { "src/util.c", "src/graph.c", "src/lattice.c", "src/grid.c", "src/jps.c",
                     "src/hex.c", "src/search.c", "src/heuristics.c", "src/anyangle.c",
                     "src/taut.c", "src/thread.c", "src/components.c", "src/lastar.c" },
         incdirs = { "src" },
      },
   },
   -- libm and pthreads on Unix only: MSVC has no m.lib (the C runtime holds
   -- the math), and Win32 threads (src/thread.c) need no library
   platforms = {
      unix = { modules = { ["astar.core"] = { libraries = { "m", "pthread" } } } },
   },
   copy_directories = { "doc" },
}
