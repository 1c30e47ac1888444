--- astar.pure.core: the pure-Lua backend, in astar.core's shape.
--
-- require("astar") uses it when the native module astar.core cannot be
-- loaded (LÖVE on Android and iOS, love.js, sandboxed mod hosts), or when
-- the environment variable ASTAR_BACKEND is "lua" (see lua/astar.lua).  It
-- serves square grids: astar.grid, astar.grid_from_string, blocked cells,
-- costs and tags, every diagonal rule, find_path (A* and jump point search,
-- every heuristic, modifiers, budgets, partial paths, trace/visited),
-- query/step, distances/next_step and line_of_sight, with the native
-- module's results and error messages.  Everything else raises
-- "<name> needs the native module".
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local G = require("astar.pure.grid")
local F = require("astar.pure.field")
local O = require("astar.pure.opts")
local S = require("astar.pure.search")
local describe = U.describe
local argerr, raise = U.argerr, U.raise
local floor, huge = math.floor, math.huge

-- LuaJIT: the searches compile to many traces (one per branch of the jump
-- and heap loops), more than the default limits hold (1000 traces, 512 KB
-- of machine code); LuaJIT then flushes and recompiles all the time and
-- runs the backend slower than its own interpreter (76 ms against 23 ms a
-- query on random512-20-0; worse beside other code that compiles, such as
-- Jumper in bench/pure.lua).  So the backend raises them to 4000 traces and
-- 4 MB (allocated as used, 32 KB at a time).  This is process-wide: a host
-- that sets its own values after requiring astar keeps them.
if jit and jit.opt and jit.status and jit.status() then
  pcall(jit.opt.start, "maxtrace=4000", "maxmcode=4096")
end

local core = {}
core.version = "0.2.0"
core._VERSION = "astar 0.2.0"
core.DIAGONAL = G.DIAGONAL
core.backend = "lua"
core.grid = G.grid
core.grid_from_string = G.grid_from_string
core.field = F.field
core._options = O.options_table

local Grid = G.Grid

-- ---------------------------------------------------------------------------
-- paths

-- Path methods: what the facade adds (astar.follow's point_at, project,
-- world_length, follower) through core._methods(), as on the native module.
-- Every grid has its own path metatable, which names the grid (as the
-- native module's do): getmetatable(path).grid, which astar.follow reads.
local PathMethods = {}
local function path_index(path, k)
  if k ~= "xy" then return PathMethods[k] end
  local w, nodes, xy = rawget(path, "width"), rawget(path, "nodes"), {}
  for i = 1, #nodes do
    local id = nodes[i]
    local y = floor((id - 1) / w)
    xy[i] = { id - y * w, y + 1 }
  end
  rawset(path, "xy", xy)
  return xy
end

local function stats_into(t, st)
  t.expanded, t.reopened, t.generated = st.expanded, st.reopened, st.generated
  t.trace, t.visited = st.trace, st.visited
  return t
end

-- the outcome of search s: a path, or nil, reason, stats
local function outcome(g, s, o, goal, restarts)
  local status = s.status()
  local p
  if status == "found" then
    p = goal
  elseif o.partial and s.best() then
    p = s.best()
  else
    local stats = stats_into({}, s.stats())
    stats.restarts = restarts
    return nil, status, stats
  end
  local nodes, cost, len = s.path_to(p)
  local path = stats_into({ nodes = nodes, cost = cost, length = len, width = g.w }, s.stats())
  if status ~= "found" then
    path.partial = true
    path.reason = status
  end
  path.restarts = restarts
  path.version = g.ver
  local mt = g.path_mt
  if not mt then
    mt = { __name = "astar.GridPath", __index = path_index, grid = g }
    g.path_mt = mt
  end
  return setmetatable(path, mt)
end

-- ---------------------------------------------------------------------------
-- searches

-- a state for a search on g: the grid's own (prefilled arrays), unless a
-- search on it is running (a nested search from a callback gets a new one)
local function take_state(g)
  local st = g.state
  if st then
    g.state = nil
    return st
  end
  return S.new_state(g.n, not g.state_made)
end

local function give_state(g, st)
  g.state_made = true
  if not g.closed then g.state = st end
end

local function lock(g, o)
  g.busy = g.busy + 1
  if o.penalty then o.penalty.locks = o.penalty.locks + 1 end
  if o.forbid then o.forbid.locks = o.forbid.locks + 1 end
end

local function unlock(g, o)
  g.busy = g.busy - 1
  if o.penalty then o.penalty.locks = o.penalty.locks - 1 end
  if o.forbid then o.forbid.locks = o.forbid.locks - 1 end
  if g.busy == 0 and g.close_pending then
    g.close_pending = nil
    Grid.close(g)
  end
end

-- begins a path search: the search object, or nil and the status decided
-- without one (impassable start or goal, goal in another component)
local function begin(g, o, st, sp, gp)
  local s = S.new(g, o, st, sp, gp)
  local passable = s.passable
  local start_ok, goal_ok = passable(sp), passable(gp)
  if not start_ok or (not goal_ok and not o.partial) then
    s.set_status("unreachable")
    return s
  end
  local apart = false
  if goal_ok and sp ~= gp and not G.same_component(g, sp, gp) then
    if not o.partial then
      s.set_status("unreachable")
      return s
    end
    apart = true
  end
  local search_goal = gp
  if not goal_ok then search_goal = -2 end
  if search_goal ~= gp then
    -- the goal can never be reached: a new search object whose goal is none
    s = S.new(g, o, st, sp, gp, nil, true)
  end
  s.apart = apart
  s.seed(sp)
  return s
end

local function run(s, n)
  local status = s.run(n)
  if s.apart and (status == "max_expansions" or status == "max_cost") then
    s.set_status("unreachable")
    status = "unreachable"
  end
  return status
end

-- goals = {...} (the nearest of several goals, the goal left out) is the
-- native module's: it raises here, before the goal is checked
local function path_args(g, fname, nargs, x1, y1, x2, y2, opts)
  local o = type(x2) == "table" and y2 == nil and x2 or opts
  if type(o) == "table" and rawget(o, "goals") ~= nil then
    U.raise(('option "goals" of %s needs the native module (astar.core)'):format(fname))
  end
  local sp = G.cell(g, fname, 2, x1, y1, nargs)
  local gp = G.cell(g, fname, 4, x2, y2, nargs)
  return sp, gp
end

function Grid.find_path(...)
  local g, x1, y1, x2, y2, opts = ...
  G.check(g, "find_path")
  local sp, gp = path_args(g, "find_path", select("#", ...), x1, y1, x2, y2, opts)
  local o = O.parse(g, "find_path", 6, opts, "path")
  local st = take_state(g)
  lock(g, o)
  local ok, s = pcall(function()
    local s = begin(g, o, st, sp, gp)
    run(s)
    return s
  end)
  unlock(g, o)
  give_state(g, st)
  if not ok then error(s, 0) end
  return outcome(g, s, o, gp)
end

-- ---------------------------------------------------------------------------
-- distances

local function read_sources(g, fname, arg, sources)
  if type(sources) ~= "table" then U.type_error(fname, arg, "table (a list of sources)", sources, true) end
  local n = #sources
  if n == 0 then argerr(fname, arg, "sources must be a non-empty list", true) end
  local out = {}
  for i = 1, n do
    local c = rawget(sources, i)
    local ok = type(c) == "table"
    local x, y
    if ok then
      x, y = rawget(c, 1), rawget(c, 2)
      ok = type(x) == "number" and type(y) == "number" and x == floor(x) and y == floor(y)
        and x >= 1 and y >= 1 and x <= g.w and y <= g.h
    end
    if not ok then
      argerr(fname, arg, ("sources[%d] must be a cell {x, y} inside the %dx%d grid, got %s")
        :format(i, g.w, g.h, describe(c)), true)
    end
    out[i] = y * g.pw + x + 1
  end
  return out
end

-- computes the distance field of the sources under o
local function compute_distances(g, o, sources)
  local st = S.new_state(g.n, false)
  lock(g, o)
  local ok, s = pcall(function()
    local s = S.new(g, o, st, nil, nil, sources)
    for i = 1, #sources do
      local p = sources[i]
      if s.passable(p) and not s.reached_by(p) then s.seed(p) end
    end
    s.run()
    return s
  end)
  unlock(g, o)
  if not ok then error(s, 0) end
  local f = F.new(g.w, g.h, huge)
  local v, par = f.v, {}
  local gv, spar, stamp, gen = s.gv, s.par, s.stamp, s.gen
  local pw = g.pw
  for y = 1, g.h do
    local base = y * pw + 1
    for x = 1, g.w do
      local p = base + x
      if stamp[p] == gen then
        v[p] = gv[p]
        par[p] = spar[p]
      end
    end
  end
  f.dist = { grid = g, version = g.ver, par = par,
    penalty = o.penalty, penalty_version = o.penalty and o.penalty.fver,
    forbid = o.forbid, forbid_version = o.forbid and o.forbid.fver,
    recompute = function() return compute_distances(g, o, sources) end }
  return f
end

function Grid.distances(g, sources, opts)
  G.check(g, "distances")
  local list = read_sources(g, "distances", 2, sources)
  local o = O.parse(g, "distances", 3, opts, "distances")
  -- the options are kept (field:update recomputes with them): a copy
  if o.tagf then
    local t = {}
    for k, v in pairs(o.tagf) do t[k] = v end
    o.tagf = t
  end
  return compute_distances(g, o, list)
end

-- ---------------------------------------------------------------------------
-- time-sliced queries

local Query = {}
Query.__index = Query
Query.__name = "astar.Query"

function Grid.query(...)
  local g, x1, y1, x2, y2, opts = ...
  G.check(g, "query")
  local sp, gp = path_args(g, "query", select("#", ...), x1, y1, x2, y2, opts)
  local o = O.parse(g, "query", 6, opts, "query")
  return setmetatable({ g = g, o = o, sp = sp, gp = gp, st_status = "searching", restarts = nil,
    stepping = false }, Query)
end

local function check_query(q, fname)
  if getmetatable(q) ~= Query then U.type_error(fname, 1, "astar.Query", q) end
  return q
end

local function fields_version(o)
  return (o.penalty and o.penalty.fver or 0) .. ":" .. (o.forbid and o.forbid.fver or 0)
end

local function count_arg(n)
  if type(n) ~= "number" or not (n >= 1) or n ~= floor(n) or n > 2 ^ 53 then
    argerr("step", 2, ("n must be an integer in 1..2^53, got %s"):format(describe(n)), true)
  end
  return n
end

-- the budget table { n = count, time = seconds }: the native module's
-- checks and messages; returns the count (or nil) and the seconds (or nil)
local function budget_arg(b)
  for k in pairs(b) do
    if k ~= "n" and k ~= "time" then
      argerr("step", 2, ("budget keys are n and time, got %s"):format(describe(k)), true)
    end
  end
  if b.n == nil and b.time == nil then argerr("step", 2, "budget table needs n or time", true) end
  local n, t = b.n, b.time
  if n ~= nil then count_arg(n) end
  if t ~= nil and (type(t) ~= "number" or not (t > 0) or t == math.huge) then
    argerr("step", 2, ("time must be a finite number of seconds > 0, got %s"):format(describe(t)), true)
  end
  return n, t
end

-- a time budget's chunks of expansions (as native): the first before the
-- query has measured what an expansion costs, and the largest
local FIRST_CHUNK, MAX_CHUNK = 1, 4096

-- run(s, n) within `secs` seconds of os.clock (the CPU time of the process:
-- plain Lua has no wall clock finer than a second; a step's work is CPU
-- work), in chunks read on the clock, each sized from the measured time per
-- expansion (s.per_exp) to take at most half of the time left, at least one
-- expansion: the step ends at most about one expansion past its time
local function run_timed(s, n, secs)
  local t0 = os.clock()
  local deadline = t0 + secs
  while true do
    local per, chunk = s.per_exp, FIRST_CHUNK
    if per then
      chunk = math.floor(0.5 * (deadline - t0) / per)
      if chunk < 1 then chunk = 1 elseif chunk > MAX_CHUNK then chunk = MAX_CHUNK end
    end
    if n and n < chunk then chunk = n end
    local status = run(s, chunk)
    local t1 = os.clock()
    -- a slower chunk raises the measure at once, a faster one lowers it by a quarter
    local e = (t1 - t0) / chunk
    if e < 1e-9 then e = 1e-9 end
    s.per_exp = (not per or e > per) and e or 0.75 * per + 0.25 * e
    t0 = t1
    if status ~= "searching" then return status end
    if n then
      n = n - chunk
      if n <= 0 then return status end
    end
    if deadline - t0 < 0.5 * s.per_exp then return status end
  end
end

function Query.step(q, n)
  check_query(q, "step")
  local secs
  if type(n) == "table" then
    n, secs = budget_arg(n)
  elseif n ~= nil then
    count_arg(n)
  end
  if q.stepping then raise("cannot step a query while it is stepping") end
  if q.failed then raise("this query failed (an error was raised while it ran): start a new one") end
  if q.st_status ~= "searching" then return q.st_status end
  local g, o = q.g, q.o
  if g.closed then
    q.st_status = "cancelled"
    q.s = nil
    return "cancelled"
  end
  if q.s and (q.s.version ~= g.ver or q.fv ~= fields_version(o)) then
    if o.on_change == 3 then
      q.st_status = "changed"
      q.final_stats = q.s.stats()
      q.s = nil
      return "changed"
    end
    q.s = nil
    q.restarts = (q.restarts or 0) + 1
    if o.algorithm == 3 then
      local why = O.jps_refusal(g, o)
      if why then raise(('algorithm "jps" does not apply to this query any more (%s)'):format(why)) end
    end
  end
  q.stepping = true
  lock(g, o)
  local ok, status = pcall(function()
    if not q.s then
      q.s = begin(g, o, S.new_state(g.n, false), q.sp, q.gp)
      q.fv = fields_version(o)
    end
    if secs then return run_timed(q.s, n, secs) end
    return run(q.s, n)
  end)
  unlock(g, o)
  q.stepping = false
  if not ok then
    q.failed = true
    q.st_status = "failed"
    q.s = nil
    error(status, 0)
  end
  if status ~= "searching" then
    q.st_status = status
    q.result_v = { outcome(g, q.s, o, q.gp, q.restarts) }
    q.s = nil
  end
  if q.cancel_pending then
    q.cancel_pending = nil
    Query.cancel(q)
    return q.st_status
  end
  return status
end

function Query.result(q)
  check_query(q, "result")
  if q.failed then raise("this query failed (an error was raised while it ran): start a new one") end
  local r = q.result_v
  if r then return r[1], r[2], r[3] end
  local stats
  if q.st_status == "changed" then
    stats = stats_into({}, q.final_stats)
    stats.restarts = q.restarts
    return nil, "changed", stats
  end
  stats = q.s and stats_into({}, q.s.stats()) or { expanded = 0, reopened = 0, generated = 0 }
  stats.restarts = q.restarts
  if q.st_status == "cancelled" then return nil, "cancelled", stats end
  return nil, "searching", stats
end

function Query.cancel(q)
  check_query(q, "cancel")
  if q.stepping then
    q.cancel_pending = true
    return
  end
  q.s = nil
  if q.st_status == "searching" then q.st_status = "cancelled" end
end
Query.__close = Query.cancel

function Query.status(q)
  check_query(q, "status")
  if q.failed then return "failed" end
  if q.stepping then return "searching" end
  return q.st_status
end

function Query.__tostring(q)
  local expanded = 0
  if q.s then expanded = q.s.stats().expanded
  elseif q.result_v then
    local r = q.result_v
    expanded = r[1] and r[1].expanded or (r[3] and r[3].expanded) or 0
  end
  return ("astar.Query (%s, %d expanded)"):format(Query.status(q), expanded)
end

-- ---------------------------------------------------------------------------
-- named heuristics (the registry every script of a game shares)

local BUILTIN = { hex = true }
for _, n in ipairs(O.HEURISTICS) do BUILTIN[n] = true end

function core.register_heuristic(name, h, opts)
  if type(name) ~= "string" or name == "" then
    argerr("register_heuristic", 1, ("name must be a non-empty string, got %s"):format(U.describe_arg(name, 1)))
  end
  if h ~= nil and not U.is_callable(h) then
    argerr("register_heuristic", 2,
      ("heuristic must be a function, a heuristic object or nil, got %s"):format(describe(h)))
  end
  local override = false
  if opts ~= nil then
    if type(opts) ~= "table" then U.type_error("register_heuristic", 3, "table", opts) end
    for k in pairs(opts) do
      if k ~= "override" then argerr("register_heuristic", 3, ("unknown option %s"):format(describe(k))) end
    end
    local v = opts.override
    if v ~= nil and type(v) ~= "boolean" then
      argerr("register_heuristic", 3, ("override must be a boolean, got %s"):format(describe(v)))
    end
    override = v == true
  end
  if BUILTIN[name] and not override then
    argerr("register_heuristic", 1,
      ('"%s" is a built-in heuristic (pass { override = true } to replace it)'):format(name))
  end
  O.registry[name] = h
end

function core.heuristics()
  local t = {}
  for n in pairs(BUILTIN) do t[#t + 1] = n end
  for n in pairs(O.registry) do
    if not BUILTIN[n] then t[#t + 1] = n end
  end
  table.sort(t)
  return t
end

-- ---------------------------------------------------------------------------
-- what needs the native module

for _, name in ipairs({ "graph", "hex", "landmarks", "cluster_heuristic", "audit_heuristic", "batch" }) do
  core[name] = U.needs_native("astar." .. name)
end
core._batch_info = U.needs_native("astar._batch_info")

require("astar.pure.edits") -- version, changes, path_valid, bulk edits ...

--- core._methods() -> the method tables: grids, hex grids, graphs (none
-- here: empty), grid paths (as the native module's)
function core._methods() return Grid, {}, {}, PathMethods end

-- every public function and method counts its arguments ("got no value")
U.wrap(Grid)
U.wrap(Query)
U.wrap(F.Field)
for _, name in ipairs({ "grid", "grid_from_string", "field", "register_heuristic" }) do
  local f = core[name]
  core[name] = function(...)
    U.nargs = select("#", ...)
    return U.pass(f(...))
  end
end

return core
