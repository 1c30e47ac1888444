---@meta astar
-- Editor annotations (LuaLS / EmmyLua) for require("astar"): every module
-- function, every class and method, the option tables with every option,
-- and the results.  Not loaded at run time.  Point the editor at this
-- directory (LuaLS: "workspace.library": ["<rock or clone>/types"]); the
-- rock installs it with the docs (luarocks show astar).  doc/reference.md
-- is the reference; spec/types_spec.lua checks this file against the module
-- (every export and method typed, nothing typed that does not exist).

---@alias astar.DiagonalRule "never"|"no_corner_cutting"|"one_obstacle"|"always"
---@alias astar.HexLayout "odd_r"|"even_r"|"odd_q"|"even_q"
---@alias astar.Stop "expand"|"first_hit"|"optimal"
---@alias astar.Reason "unreachable"|"max_expansions"|"max_cost"|"searching"|"cancelled"|"changed"|"failed"
---@alias astar.Status "searching"|"found"|"unreachable"|"max_expansions"|"max_cost"|"changed"|"cancelled"|"failed"|"done"
---@alias astar.Topology astar.Graph|astar.Grid|astar.Hex
---@alias astar.HeuristicName "zero"|"euclidean"|"manhattan"|"octile"|"chebyshev"|"bisector"|"full_bisector"|"hex"|string
--- A Lua heuristic: h(node, goal) on graphs, h(x, y, gx, gy) on grids.
---@alias astar.HeuristicFn fun(a: integer, b: integer, c?: integer, d?: integer): number
---@alias astar.HeuristicSpec astar.HeuristicName|astar.HeuristicFn|astar.Heuristic|table
--- A legend entry: true open, false blocked, a cost, a tag name, or a table.
---@alias astar.LegendEntry boolean|number|string|{ blocked?: boolean, cost?: number, tag?: string }
---@alias astar.Legend table<string|number, astar.LegendEntry>
---@alias astar.Cell { [1]: integer, [2]: integer }
--- A budget of Query:step: expansions, or { n = expansions, time = seconds } (either or both).
---@alias astar.StepBudget integer|{ n?: integer, time?: number }
--- A budget of Planner:update: seconds, or { time = seconds, expansions = n } (either or both).
---@alias astar.PlannerBudget number|{ time?: number, expansions?: integer }
---@alias astar.PlannerStatus "queued"|"searching"|"watching"
--- Where a planner's unit stands now: x, y on grids, a node (one integer) on graphs.
---@alias astar.Locate fun(key: any): integer?, integer?

--- Options of astar.grid (and grid_from_string, grid_from_table, maps.load).
---@class astar.GridOptions
---@field diagonal? astar.DiagonalRule the diagonal rule (default "no_corner_cutting")
---@field cell_size? number world units per cell (default 1)
---@field origin? { [1]: number, [2]: number } the top-left corner in world units (default {0, 0})

--- Options of astar.hex (and hex_from_table).
---@class astar.HexOptions
---@field layout? astar.HexLayout (default "odd_r")
---@field cell_size? number the hexagon's outer radius (default 1)
---@field origin? { [1]: number, [2]: number }

--- grid_from_table(rows, opts): the grid options and the legend.
---@class astar.GridTableOptions : astar.GridOptions
---@field legend? astar.Legend

--- hex_from_table(rows, opts): the hex options and the legend.
---@class astar.HexTableOptions : astar.HexOptions
---@field legend? astar.Legend

--- The search options of find_path, query, distances and astar.batch
--- (doc/reference.md, "Search options"); an unknown key is an error.
---@class astar.SearchOptions
---@field heuristic? astar.HeuristicSpec default "euclidean" (graphs), "octile" (grids), "hex" (hex grids)
---@field weight? number f = g + weight * h (default 1)
---@field stop? astar.Stop (default "expand")
---@field tie_break? "high_g"|"fifo" (default "high_g")
---@field costs? table<string, number|false> tag factors; false forbids
---@field cost? function cost(from, to, cost, edge) on graphs, cost(x1, y1, x2, y2, cost) on grids -> number|false
---@field penalty? astar.Field adds field[cell] * penalty_scale to entering each cell (grids)
---@field penalty_scale? number (default 1)
---@field forbid? astar.Field cells with a non-zero value are forbidden (grids)
---@field size? integer a unit of size x size cells, 1..255 (grids)
---@field max_expansions? integer
---@field max_cost? number
---@field partial? boolean return the closest path when the goal is not reached
---@field trace? boolean record every expansion
---@field visited? boolean record the expanded node ids
---@field direction? "to_sources"|"from_sources" distances only
---@field algorithm? "auto"|"astar"|"jps"|"jps+"
---@field smooth? boolean add path.points, string-pulled (square grids)
---@field any_angle? boolean an any-angle search, Theta* (square grids)
---@field on_change? "repair"|"restart"|"fail" queries: what a changed map does between steps (default "repair")
---@field start_blocked? "fail"|"escape" grids, find_path only: "escape" leaves a start the unit cannot stand on by the nearest way out (default "fail")
---@field goals? astar.Cell[]|integer[] find_path and query, the goal arguments left out (nil): the path to the nearest of these cells {x, y} (grids) or node ids (graphs); path.goal says which

--- One entry of path.trace.
---@class astar.TraceEntry
---@field node integer
---@field parent? integer
---@field g number
---@field f number
---@field x? integer grids
---@field y? integer grids

--- The counters of a search (the third result of fail).
---@class astar.Stats
---@field expanded integer
---@field reopened integer
---@field generated integer
---@field trace? astar.TraceEntry[]
---@field visited? integer[]
---@field restarts? integer queries: searches begun again because the map changed between steps
---@field repairs? integer queries: changes between steps the search was repaired after

--- A path (an ordinary table; doc/reference.md, "Path and stats").
---@class astar.Path: astar.Stats
---@field cost number
---@field nodes integer[] node or cell ids, start .. goal
---@field edges? integer[] graphs: the edge ids used
---@field length? number grids: the geometric length
---@field points? astar.Cell[] grids, with smooth or any_angle
---@field xy? astar.Cell[] grids: {x, y} of each cell, built on first access
---@field width? integer grids
---@field partial? true
---@field reason? astar.Reason on a partial path
---@field version integer the version of the map the path was made on (grid:version(), graph:version())
---@field size? integer grids, a unit of size above 1: its size (what path_valid checks)
---@field goal? integer find_nearest, and find_path or query with goals: the index in goals of the goal reached
---@field threat_distance? number flee: the threats' cost to reach the path's end (math.huge: none can)
---@field escape? integer start_blocked = "escape" from a cell the unit cannot stand on: the first `escape` entries of nodes are the escape leg

--- A path of a grid or hex grid: a Path with the walk methods of its grid's
--- path metatable (getmetatable(path).grid is the grid), in world units
--- (doc/reference.md, "Following a path and placing units").
---@class astar.GridPath: astar.Path
local GridPath = {}

--- The point d world units along the path (clamped to its ends) and the unit
--- vector of the direction of travel there.
---@param d number
---@return number x
---@return number y
---@return number dx
---@return number dy
function GridPath:point_at(d) end

--- The distance along the path of its point nearest (wx, wy), and that point.
---@param wx number
---@param wy number
---@return number d
---@return number x
---@return number y
function GridPath:project(wx, wy) end

--- The length of the walk in world units.
---@return number
function GridPath:world_length() end

--- A follower walking this path (astar.follower(path, opts)).
---@param opts? astar.FollowerOptions
---@return astar.Follower
function GridPath:follower(opts) end

--- Options of astar.follower and path:follower.
---@class astar.FollowerOptions
---@field speed? number world units per second, finite and > 0 (default 1)
---@field radius? number how close to the end counts as arrived, finite and >= 0 (default 0)

--- A unit walking a grid path at a speed, in world units (astar.follower).
---@class astar.Follower
---@field x number its position
---@field y number
---@field dx number its heading, a unit vector
---@field dy number
---@field arrived boolean
---@field speed number world units per second (may be changed between updates)
---@field radius number (may be changed between updates)
---@field path astar.GridPath
local Follower = {}

--- Moves speed * dt along the path; stops within radius of the end.
---@param dt number seconds, finite and >= 0
---@return number x
---@return number y
---@return boolean arrived
function Follower:update(dt) end

--- Follows a new path from where the unit is (straight to its nearest point first).
---@param path astar.GridPath
---@return astar.Follower self
function Follower:retarget(path) end

---@return number x
---@return number y
---@return number dx
---@return number dy
function Follower:position() end

--- The distance left to the end, the join included.
---@return number
function Follower:remaining() end

--- Options of astar.planner.
---@class astar.PlannerOptions
---@field aging? number frames of waiting one priority level is worth (default 30)
---@field locate? astar.Locate where the unit stands now
---@field watch? boolean keep delivered paths and check them (default true)
---@field clock? fun(): number seconds (default os.clock)
---@field slice? integer expansions of a first slice on a time budget (default 64)

--- Options of planner:request: priority, watch and any option of find_path.
---@class astar.RequestOptions: astar.SearchOptions
---@field priority? number higher first (default 0)
---@field watch? boolean this request's (default: the planner's)

--- One entry of planner:update's list: a delivered path, a failure, or a
--- watched path the map's changes broke (reason "invalidated").
---@class astar.PlannerResult
---@field key any
---@field path? astar.Path delivered
---@field reason? astar.Reason|"invalidated"
---@field waited? integer frames since the order, counting this one
---@field broken? integer with "invalidated": the first broken index of the path

--- A distribution of planner:stats.
---@class astar.PlannerSample
---@field count integer
---@field median number
---@field p99 number
---@field max number

--- What planner:stats returns.
---@class astar.PlannerStats
---@field frames integer
---@field requested integer
---@field delivered integer
---@field failed integer
---@field cancelled integer
---@field invalidated integer
---@field expansions integer
---@field checks integer
---@field pending integer
---@field watching integer
---@field wait astar.PlannerSample frames from order to answer
---@field time astar.PlannerSample seconds per update

--- Many path requests served on a per-frame budget (astar.planner).
---@class astar.Planner
local Planner = {}

--- Orders a path for key (replacing the key's old request).
---@param key any not nil, not NaN
---@param from astar.Cell|integer {x, y} on grids, a node on graphs
---@param to? astar.Cell|integer nil with opts.goals (the nearest of several goals)
---@param opts? astar.RequestOptions
function Planner:request(key, from, to, opts) end

--- One frame: serves the queue within the budget.
---@param budget astar.PlannerBudget
---@return astar.PlannerResult[]
function Planner:update(budget) end

---@param key any
---@return boolean had true if the key had a request or a watched path
function Planner:cancel(key) end

---@param key any
---@return astar.PlannerStatus?
function Planner:status(key) end

---@return integer requests waiting or being searched
function Planner:pending() end

---@return astar.PlannerStats
function Planner:stats() end

--- A report of astar.audit_heuristic.
---@class astar.AuditReport
---@field admissible boolean
---@field max_overestimate number
---@field overestimates integer
---@field consistent boolean
---@field violations integer
---@field max_inconsistency number
---@field checked integer
---@field steps integer
---@field samples integer
---@field excess_bound number

--- A cached heuristic (astar.cached): callable, with its counters.
---@class astar.CachedHeuristic
---@field hits integer
---@field misses integer
---@field clear fun()
---@overload fun(a: integer, b: integer, c?: integer, d?: integer): number

--- A scenario of a Moving AI .scen file.
---@class astar.Scenario
---@field bucket integer
---@field map string
---@field width integer
---@field height integer
---@field start astar.Cell
---@field goal astar.Cell
---@field optimal number
---@field tolerance number

---@class astar
---@field DIAGONAL number the cost of a diagonal grid step (sqrt 2 on a 2^-32 grid)
---@field version string "0.2.0"
---@field _VERSION string "astar 0.2.0"
---@field maps astar.maps
---@field backend "native"|"lua" which implementation serves require("astar")
local astar = {}

---@return astar.Graph
function astar.graph() end

---@param width integer
---@param height integer
---@param opts? astar.GridOptions
---@return astar.Grid
function astar.grid(width, height, opts) end

---@param text string
---@param legend? table<string, astar.LegendEntry>
---@param opts? astar.GridOptions
---@return astar.Grid
function astar.grid_from_string(text, legend, opts) end

--- rows[y][x]: 0 open, 1 blocked, ".", "#", "@" unless the legend says otherwise;
--- or (rows, opts) with the legend in opts.legend.
---@param rows (number|string)[][]
---@param legend? astar.Legend
---@param opts? astar.GridOptions
---@return astar.Grid
---@overload fun(rows: (number|string)[][], opts: astar.GridTableOptions): astar.Grid
function astar.grid_from_table(rows, legend, opts) end

---@param rows (number|string)[][]
---@param legend? astar.Legend
---@param opts? astar.HexOptions
---@return astar.Hex
---@overload fun(rows: (number|string)[][], opts: astar.HexTableOptions): astar.Hex
function astar.hex_from_table(rows, legend, opts) end

---@param width integer
---@param height integer
---@param opts? astar.HexOptions
---@return astar.Hex
function astar.hex(width, height, opts) end

---@param grid astar.Grid|astar.Hex
---@param value? number
---@return astar.Field
function astar.field(grid, value) end

---@param topology astar.Topology
---@param k integer 1..64
---@return astar.Heuristic
function astar.landmarks(topology, k) end

---@param topology astar.Topology
---@param clusters integer[]|astar.Field|{ count: integer }
---@return astar.Heuristic
function astar.cluster_heuristic(topology, clusters) end

---@param h astar.HeuristicFn|table
---@param size integer
---@return astar.CachedHeuristic
function astar.cached(h, size) end

---@param topology astar.Topology
---@param h astar.HeuristicSpec
---@param opts? { samples?: integer }
---@return astar.AuditReport
function astar.audit_heuristic(topology, h, opts) end

---@param name string
---@param h astar.HeuristicFn|astar.Heuristic|table|nil
---@param opts? { override?: boolean }
function astar.register_heuristic(name, h, opts) end

---@return string[]
function astar.heuristics() end

---@param topology astar.Topology
---@param requests integer[][] {x1, y1, x2, y2} (grids) or {start, goal} (graphs)
---@param opts? astar.SearchOptions|{ threads?: integer }
---@return (astar.Path|false)[] paths
---@return string[] reasons
function astar.batch(topology, requests, opts) end

---@param points { [1]: number, [2]: number, [3]?: number }[]
---@param los astar.Grid|fun(a: table, b: table, i: integer, j: integer): boolean
---@return astar.Graph
function astar.waypoints(points, los) end

---@param width integer
---@param height integer
---@param opts? { edge_probability?: number, seed?: integer, gap?: number }
---@return astar.Graph
function astar.labyrinth(width, height, opts) end

---@param topology astar.Topology
---@param opts? { path?: astar.Path|integer[], visited?: integer[], trace?: astar.TraceEntry[], points?: astar.Cell[], field?: astar.Field, cell?: number, title?: string }
---@return string svg
function astar.svg(topology, opts) end

---@param topology astar.Topology
---@param opts? astar.PlannerOptions
---@return astar.Planner
function astar.planner(topology, opts) end

---@param path astar.GridPath
---@param opts? astar.FollowerOptions
---@return astar.Follower
function astar.follower(path, opts) end

--- Moving AI benchmark maps.
---@class astar.maps
local maps = {}

---@param path string
---@param opts? astar.GridOptions
---@return astar.Grid
function maps.load(path, opts) end

---@param text string
---@param opts? astar.GridOptions
---@return astar.Grid
function maps.parse(text, opts) end

---@param path string
---@return astar.Scenario[]
function maps.scenarios(path) end

---@param text string
---@return astar.Scenario[]
function maps.parse_scenarios(text) end

--- A directed weighted multigraph (astar.graph).
---@class astar.Graph
local Graph = {}

---@param x number
---@param y number
---@param z? number
---@return integer node
function Graph:add_node(x, y, z) end

---@param from integer
---@param to integer
---@param cost number
---@param tag? string
---@return integer edge
function Graph:add_edge(from, to, cost, tag) end

---@param a integer
---@param b integer
---@param cost number
---@param tag? string
---@return integer ab
---@return integer ba
function Graph:connect(a, b, cost, tag) end

---@return integer
function Graph:node_count() end

---@return integer
function Graph:edge_count() end

---@param n integer
---@return number x
---@return number y
---@return number z
function Graph:position(n) end

---@param e integer
---@return integer from
---@return integer to
---@return number cost
---@return string? tag
function Graph:edge(e) end

---@param e integer
---@param cost number
function Graph:set_cost(e, cost) end

---@param n integer
---@param enabled boolean
function Graph:set_enabled(n, enabled) end

---@param n integer
---@return boolean
function Graph:is_enabled(n) end

---@param a integer
---@param b integer
---@return boolean
function Graph:connected(a, b) end

--- Whether disabling node n would separate any two of nodes connected now (nothing changes).
---@param n integer
---@param nodes integer[]
---@return boolean
function Graph:would_disconnect(n, nodes) end

--- The enabled node nearest a position (in space with z, else in the plane).
---@param x number
---@param y number
---@param z? number
---@return integer? node nil when no node is enabled
---@return number? distance
function Graph:nearest(x, y, z) end

--- A path to the nearest of several goals, in one search (path.goal: its index in goals).
---@param start integer
---@param goals integer[]
---@param opts? astar.SearchOptions the options of distances but direction
---@return astar.Path? path nil on fail
---@return astar.Reason? reason
---@return astar.Stats? stats
function Graph:find_nearest(start, goals, opts) end

---@param start integer
---@param goal? integer nil (or left out) with opts.goals
---@param opts? astar.SearchOptions
---@return astar.Path? path nil on fail
---@return astar.Reason? reason
---@return astar.Stats? stats
function Graph:find_path(start, goal, opts) end

---@param start integer
---@param goal? integer nil (or left out) with opts.goals
---@param opts? astar.SearchOptions
---@return astar.Query
function Graph:query(start, goal, opts) end

---@param sources integer[]
---@param opts? astar.SearchOptions
---@return number[] dist
---@return integer[] toward
function Graph:distances(sources, opts) end

---@param sources integer[]
---@param opts? astar.SearchOptions
---@return astar.Query
function Graph:distances_query(sources, opts) end

--- Changes with every change of the graph; paths record it (path.version).
---@return integer
function Graph:version() end

--- Whether a path of this graph still holds from entry from_index on.
---@param path astar.Path|{ nodes: integer[], edges: integer[] }
---@param from_index? integer default 1
---@param opts? astar.SearchOptions the path's options (costs is read)
---@return boolean ok
---@return integer? i with false: the index in path.nodes of the first broken node
function Graph:path_valid(path, from_index, opts) end

function Graph:close() end

--- The cell methods that square and hex grids share.
---@class astar.Cells
local Cells = {}

---@param x integer
---@param y integer
---@param blocked boolean
function Cells:set_blocked(x, y, blocked) end

--- Blocks or opens a rectangle (corners in either order): one change.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param blocked boolean
function Cells:set_blocked_rect(x1, y1, x2, y2, blocked) end

--- Blocks or opens a list of {x, y}: one change.
---@param cells astar.Cell[]
---@param blocked boolean
function Cells:set_blocked_cells(cells, blocked) end

---@param x integer
---@param y integer
---@return boolean
function Cells:is_blocked(x, y) end

---@param x integer
---@param y integer
---@param cost number
function Cells:set_cost(x, y, cost) end

---@param x integer
---@param y integer
---@return number
function Cells:get_cost(x, y) end

---@param x integer
---@param y integer
---@param tag string?
function Cells:set_tag(x, y, tag) end

--- Sets the cost of a rectangle (corners in either order): one change.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param cost number
function Cells:set_cost_rect(x1, y1, x2, y2, cost) end

--- Sets the cost of a list of {x, y}: one change.
---@param cells astar.Cell[]
---@param cost number
function Cells:set_cost_cells(cells, cost) end

--- Tags a rectangle (corners in either order; nil clears): one change.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param tag string?
function Cells:set_tag_rect(x1, y1, x2, y2, tag) end

--- Tags a list of {x, y} (nil clears): one change.
---@param cells astar.Cell[]
---@param tag string?
function Cells:set_tag_cells(cells, tag) end

---@param x integer
---@param y integer
---@return string?
function Cells:get_tag(x, y) end

---@param x integer
---@param y integer
---@return integer id
function Cells:id(x, y) end

---@param id integer
---@return integer x
---@return integer y
function Cells:xy(id) end

---@return integer width
---@return integer height
function Cells:size() end

---@param x integer
---@param y integer
---@return astar.Cell[]
function Cells:neighbours(x, y) end

---@return integer bytes
function Cells:memory() end

---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return boolean
function Cells:connected(x1, y1, x2, y2) end

--- Whether blocking (x, y) would separate any two of cells connected now (nothing changes).
---@param x integer
---@param y integer
---@param cells astar.Cell[]
---@return boolean
function Cells:would_disconnect(x, y, cells) end

---@param x1 integer
---@param y1 integer
---@param x2? integer nil (or left out) with opts.goals
---@param y2? integer nil (or left out) with opts.goals
---@param opts? astar.SearchOptions
---@return astar.GridPath? path nil on fail
---@return astar.Reason? reason
---@return astar.Stats? stats
function Cells:find_path(x1, y1, x2, y2, opts) end

---@param x1 integer
---@param y1 integer
---@param x2? integer nil (or left out) with opts.goals
---@param y2? integer nil (or left out) with opts.goals
---@param opts? astar.SearchOptions
---@return astar.Query
function Cells:query(x1, y1, x2, y2, opts) end

---@param sources astar.Cell[]
---@param opts? astar.SearchOptions
---@return astar.Field
function Cells:distances(sources, opts) end

---@param sources astar.Cell[]
---@param opts? astar.SearchOptions
---@return astar.Query
function Cells:distances_query(sources, opts) end

---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param size? integer
---@return boolean
function Cells:line_of_sight(x1, y1, x2, y2, size) end

---@param x integer
---@param y integer
---@return integer
function Cells:clearance(x, y) end

---@param x integer
---@param y integer
---@param radius? number
---@return astar.Field
function Cells:visible_from(x, y, radius) end

---@param path? astar.Path|integer[]
---@return string
function Cells:to_string(path) end

--- rows[y][x]: 1 blocked, 0 open.
---@return integer[][]
function Cells:to_table() end

---@param x integer
---@param y integer
---@return number wx
---@return number wy
function Cells:to_world(x, y) end

---@param wx number
---@param wy number
---@return integer? x
---@return integer? y
function Cells:to_cell(wx, wy) end

---@return number cell_size
---@return number ox
---@return number oy
function Cells:world() end

function Cells:close() end

--- 0 for a new grid, one more for every change; paths record it (path.version).
---@return integer
function Cells:version() end

--- The ids of the cells changed after version since (most recent first) and
--- the current version; nil, "overflow" when more than max changes were made
--- or the log (4096 changes) does not reach back that far.
---@param since integer
---@param max? integer 1..4096 (default 4096)
---@return integer[]? ids
---@return integer|"overflow" version
function Cells:changes(since, max) end

--- Whether a unit can still walk a path of this grid from entry from_index on.
---@param path astar.Path|{ nodes: integer[], size?: integer }
---@param from_index? integer default 1
---@param opts? astar.SearchOptions the path's options (costs, forbid, size are read)
---@return boolean ok
---@return integer? i with false: the index in path.nodes of the first broken cell
function Cells:path_valid(path, from_index, opts) end

--- At most n distinct destinations for n units sent to (x, y), nearest the goal first.
---@param x integer
---@param y integer
---@param n integer
---@param size? integer the units' size, 1..255 (default 1)
---@return astar.Cell[]
function Cells:spread(x, y, n, size) end

--- The open cell nearest (x, y) where a unit of size fits, within max_radius.
---@param x integer
---@param y integer
---@param size? integer 1..255 (default 1)
---@param max_radius? number (default: anywhere)
---@return integer? x nil when there is none
---@return integer? y
---@return number? distance between cell centres
function Cells:nearest_open(x, y, size, max_radius) end

--- A path to the nearest of several goals, in one search (path.goal: its index in goals).
---@param x integer
---@param y integer
---@param goals astar.Cell[]
---@param opts? astar.SearchOptions the options of distances but direction
---@return astar.GridPath? path nil on fail
---@return astar.Reason? reason
---@return astar.Stats? stats
function Cells:find_nearest(x, y, goals, opts) end

--- A flee path: the route within max_cost to the cell the threats reach last
--- (path.threat_distance: their cost to reach it).
---@param x integer
---@param y integer
---@param threats astar.Cell[]
---@param opts? astar.SearchOptions the options of distances but direction; max_cost is the budget
---@return astar.GridPath? path nil on fail
---@return astar.Reason? reason
---@return astar.Stats? stats
function Cells:flee(x, y, threats, opts) end

--- A square grid (astar.grid, grid_from_string, grid_from_table, maps.load).
---@class astar.Grid: astar.Cells
local Grid = {}

---@return astar.DiagonalRule
function Grid:diagonal() end

--- Builds (on true or absent) or drops (false) the jump table of
--- algorithm = "jps+" (rule no_corner_cutting only); kept current by edits.
---@param on? boolean
---@return astar.Grid
function Grid:precompute_jumps(on) end

--- Whether the grid holds a jump table.
---@return boolean
function Grid:has_jumps() end

---@param path astar.Path|{ nodes: integer[] }
---@param opts? astar.SearchOptions
---@return astar.Cell[] points
function Grid:smooth(path, opts) end

--- A hex grid (astar.hex, hex_from_table).
---@class astar.Hex: astar.Cells
local Hex = {}

---@return astar.HexLayout
function Hex:layout() end

---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return integer steps
function Hex:distance(x1, y1, x2, y2) end

--- A number per cell of a grid (astar.field, distances, visible_from).
---@class astar.Field
local Field = {}

---@param x integer
---@param y integer
---@return number
function Field:get(x, y) end

---@param x integer
---@param y integer
---@param value number
function Field:set(x, y, value) end

---@param value number
function Field:fill(value) end

---@param x integer
---@param y integer
---@param radius number
---@param value number
function Field:add_disc(x, y, radius, value) end

---@return integer width
---@return integer height
function Field:size() end

---@param x integer
---@param y integer
---@return integer? nx
---@return integer|string|nil ny
function Field:next_step(x, y) end

---@return boolean
function Field:stale() end

---@return integer
function Field:version() end

---@return "current"|"repaired"|"rebuilt"
function Field:update() end

function Field:close() end

--- A search spread over frames (graph:query, grid:query, distances_query).
---@class astar.Query
local Query = {}

---@param budget? astar.StepBudget default: to the end
---@return astar.Status
function Query:step(budget) end

---@return (astar.GridPath|astar.Path|astar.Field|nil) result
---@return astar.Reason? reason
---@return astar.Stats? stats
function Query:result() end

function Query:cancel() end

---@return astar.Status
function Query:status() end

--- A precomputed heuristic (astar.landmarks, astar.cluster_heuristic).
---@class astar.Heuristic
local Heuristic = {}

---@param a integer
---@param b integer
---@param c? integer
---@param d? integer
---@return number
function Heuristic:value(a, b, c, d) end

--- True once the topology the table was built for changed.
---@return boolean
function Heuristic:stale() end

function Heuristic:close() end

return astar
