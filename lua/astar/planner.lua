--- astar.planner: many path requests served on a per-frame budget.
--
--   local planner = astar.planner(map, { locate = function(unit) return unit.x, unit.y end })
--   planner:request(unit, { unit.x, unit.y }, { gx, gy }, { size = 2, priority = 1 })
--   -- every frame, after the frame's edits:
--   for _, r in ipairs(planner:update(0.002)) do ... r.key, r.path or r.reason ... end
--
-- What it guarantees (doc/reference.md, "Planner"):
--   * one queue, served oldest first within a priority; a priority level is
--     worth `aging` frames of waiting, so a request of any priority becomes
--     the oldest after a bounded wait and nothing starves;
--   * the head of the queue gets the whole budget that is left, then the next
--     one: a request finishes in as few frames as the work allows;
--   * everything the planner does is paid inside the budget it was given and
--     timed there: checking delivered paths against the map's changes, the
--     searches (and whatever bookkeeping a search step pays, such as
--     relabelling the map's components after an edit), building the results;
--   * a delivered path stays watched (until `cancel(key)` or a new request for
--     the key): when the map's changes break it ahead of the unit, the result
--     list says so (`reason = "invalidated"`, `broken` = the first broken index)
--     and the request is searched again from where the unit stands (`locate`).
--
-- Pure Lua (5.1 to 5.5, LuaJIT): the per-request overhead is a few table
-- operations, small beside a search step (doc/design.md, "The planner").

local describe = require("astar.describe").value

local M = {}

local Planner = {}
Planner.__index = Planner

local function is_callable(f)
  if type(f) == "function" then return true end
  local mt = getmetatable(f)
  return mt ~= nil and type(mt.__call) == "function"
end

local function is_int(v)
  return type(v) == "number" and v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53
end

local function argerror(n, fname, msg)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, msg), 3)
end

-- Percentile q (0..1) of a list of numbers (a sorted copy; nearest rank).
local function percentile(list, q)
  local n = #list
  if n == 0 then return 0 end
  local c = {}
  for i = 1, n do c[i] = list[i] end
  table.sort(c)
  local k = math.ceil(q * n)
  if k < 1 then k = 1 end
  return c[k]
end

-- A bounded sample: the last `cap` values (a ring), plus the maximum ever.
local function sample(cap) return { n = 0, cap = cap, max = 0, list = {} } end
local function record(s, v)
  s.n = s.n + 1
  s.list[(s.n - 1) % s.cap + 1] = v
  if v > s.max then s.max = v end
end
local function summary(s)
  return { count = s.n, median = percentile(s.list, 0.5), p99 = percentile(s.list, 0.99), max = s.max }
end

local MIN_SLICE = 8               -- expansions: the smallest slice on a time budget

local PLANNER_OPTS = { aging = true, locate = true, clock = true, watch = true, slice = true }
local REQUEST_OPTS = { priority = true, watch = true }

--- astar.planner(topology [, opts]) -> planner.
-- opts: aging (frames of waiting a priority level is worth, default 30),
-- locate (function(key) -> where the unit stands now: x, y on grids, a node
-- on graphs; used to search a broken path again from there and to check only
-- the part ahead of the unit), watch (default true: keep delivered paths and
-- check them against the map's changes), clock (a function returning
-- seconds, default os.clock), slice (expansions per step when stepping on a
-- time budget without the engine's own clock, default 64: the first slice; the
-- planner then sizes slices from what it measured).
function M.planner(topo, opts)
  local kind
  if type(topo) == "userdata" and type(topo.query) == "function" then
    if type(topo.node_count) == "function" then kind = "graph" else kind = "cells" end
  elseif type(topo) == "table" then
    -- the pure-Lua backend's grid (lua/astar/pure/): a table of class astar.Grid
    local mt = getmetatable(topo)
    if type(mt) == "table" and rawget(mt, "__name") == "astar.Grid" and type(topo.query) == "function" then
      kind = "cells"
    end
  end
  if not kind then
    argerror(1, "planner", "graph, grid or hex grid expected, got " .. describe(topo))
  end
  if opts ~= nil and type(opts) ~= "table" then
    argerror(2, "planner", "options must be a table, got " .. describe(opts))
  end
  opts = opts or {}
  for k in pairs(opts) do
    if not PLANNER_OPTS[k] then argerror(2, "planner", ("unknown option %s"):format(describe(k))) end
  end
  local aging, locate, clock, watch, slice = opts.aging, opts.locate, opts.clock, opts.watch, opts.slice
  if aging == nil then aging = 30 end
  if type(aging) ~= "number" or not (aging >= 0 and aging < math.huge) then
    argerror(2, "planner", "aging must be a number of frames >= 0, got " .. describe(aging))
  end
  if locate ~= nil and not is_callable(locate) then
    argerror(2, "planner", "locate must be a function, got " .. describe(locate))
  end
  if clock == nil then clock = os.clock end
  if not is_callable(clock) then argerror(2, "planner", "clock must be a function, got " .. describe(clock)) end
  if watch == nil then watch = true end
  if type(watch) ~= "boolean" then argerror(2, "planner", "watch must be a boolean, got " .. describe(watch)) end
  if slice == nil then slice = 64 end
  if not is_int(slice) or slice < 1 then
    argerror(2, "planner", "slice must be an integer >= 1, got " .. describe(slice))
  end
  local versions = type(topo.version) == "function" and type(topo.path_valid) == "function"
  local timed_step
  if opts.clock ~= nil then timed_step = false end
  return setmetatable({
    topo = topo, kind = kind, aging = aging, locate = locate, clock = clock, watch = watch,
    slice = slice,
    versions = versions,       -- the map has versions and path_valid (grids: a change log)
    version = versions and topo:version() or nil,
    -- q:step{ time = } works (probed on first use: nil); not with a clock
    -- of the caller's, which the engine cannot read (false)
    timed_step = timed_step,
    per_exp = {},              -- seconds per expansion by kind of request, measured
                               -- (time budgets by slices; jump point search costs far
                               -- more per expansion than A*)
    fin_node = nil,            -- seconds per path entry that finishing a request costs
                               -- (the path built, watched), measured; see reserve()
    fin_path = nil,            -- the same per path (graphs: no coordinates to predict from)
    len_ratio = 1.5,           -- path entries per cell of distance between the ends, measured
    scratch = { nodes = {} },  -- the window path_valid checks (check_windows)
    fields = {},               -- forbid field -> { version =, keys = set } of the
                               -- watched paths made with it (check_fields)
    hex = kind == "cells" and type(getmetatable(topo)) == "table"
      and getmetatable(topo).__name == "astar.Hex" or false,
    frame = 0, seq = 0,
    queue = {},                -- requests waiting or being searched, in no order
    by_key = {},               -- key -> its record (queued or watched)
    watched = {},              -- key -> record of a delivered path being watched
    tiles = {},                -- tile -> set of watched keys (cells; see watch_path)
    width = kind == "cells" and (topo:size()) or 0,
    height = kind == "cells" and select(2, topo:size()) or 0,
    -- tile (tx, ty) is key (ty + 1) * tiles_w + tx + 1: tx, ty from -1 (the
    -- cells next to column or row 1) to past the last block of a unit of 255
    tiles_w = kind == "cells" and math.floor(((topo:size()) + 256) / 16) + 2 or 0,
    waits = sample(4096), times = sample(4096),
    counts = { requested = 0, delivered = 0, failed = 0, cancelled = 0, invalidated = 0,
      expansions = 0, checks = 0 },
  }, Planner)
end

-- from and to of a request, checked for shape here (their range by the query).
local function check_end(self, v, n, what)
  if self.kind == "graph" then
    if not is_int(v) then argerror(n, "request", what .. " must be a node id, got " .. describe(v)) end
  elseif type(v) ~= "table" or not is_int(v[1]) or not is_int(v[2]) then
    argerror(n, "request", what .. " must be a table { x, y } of integers, got " .. describe(v))
  end
end

-- The query for a record; errors of the query's own checks are reported as
-- the request's (argument numbers of request: 2 from, 3 to, 4 options).
local function new_query(self, r, level)
  local topo, ok, q = self.topo
  if self.kind == "graph" then
    ok, q = pcall(topo.query, topo, r.from, r.to, r.qopts)
  else
    local to = r.to or {} -- goals = {...}: no goal arguments
    ok, q = pcall(topo.query, topo, r.from[1], r.from[2], to[1], to[2], r.qopts)
  end
  if not ok then
    local n, msg = tostring(q):match("^bad argument #(%d+) to '[^']*' %((.*)%)$")
    if not n then error(q, level + 1) end
    n = tonumber(n)
    if self.kind == "graph" then n = n + 1 else n = n <= 2 and 2 or n <= 4 and 3 or 4 end
    error(("bad argument #%d to 'request' (%s)"):format(n, msg), level + 1)
  end
  return q
end

local function unindex(self, w)
  local index = self.tiles
  for _, t in ipairs(w.tiles) do
    local set = index[t]
    if set then
      set[w.key] = nil
      if next(set) == nil then index[t] = nil end
    end
  end
  w.tiles = {}
end

local function unwatch(self, key)
  local w = self.watched[key]
  if w then
    unindex(self, w)
    if w.field then
      local f = self.fields[w.field]
      f.keys[key] = nil
      if next(f.keys) == nil then self.fields[w.field] = nil end
    end
    self.watched[key] = nil
  end
end

-- Forgets request r: its search freed, out of the queue, its path unwatched.
local function drop(self, r)
  if r.query then r.query:cancel(); r.query = nil end
  if r.queued then
    local queue = self.queue
    for i = 1, #queue do
      if queue[i] == r then table.remove(queue, i); break end
    end
    r.queued = false
  end
  local w = self.watched[r.key]
  if w and w.request == r then unwatch(self, r.key) end
  if self.by_key[r.key] == r then self.by_key[r.key] = nil end
end

local function enqueue(self, r)
  self.seq = self.seq + 1
  r.seq, r.ordered, r.spent = self.seq, self.frame, 0
  r.queued = true
  self.queue[#self.queue + 1] = r
end

--- planner:request(key, from, to [, opts]) -> nothing.
-- key: any value but nil and NaN (a unit table is a good key); a new request
-- for a key replaces its old one.  from, to: { x, y } on grids and hex grids,
-- node ids on graphs; to nil with opts.goals: the nearest of those goals
-- (find_path's goals = {...}, copied here; path.goal says which).  opts: priority (a number, default 0, higher first),
-- watch (default: the planner's), and any option of find_path.
function Planner:request(key, from, to, opts)
  if getmetatable(self) ~= Planner then argerror(1, "request", "planner expected, got " .. describe(self)) end
  if key == nil or key ~= key then argerror(1, "request", "key must not be nil or NaN, got " .. describe(key)) end
  check_end(self, from, 2, "from")
  if opts ~= nil and type(opts) ~= "table" then
    argerror(4, "request", "options must be a table, got " .. describe(opts))
  end
  -- goals = {...} with `to` nil: the nearest of several goals (the query
  -- checks the list)
  local goals = to == nil and opts and opts.goals or nil
  if goals == nil then check_end(self, to, 3, "to") end
  local priority, watch, qopts = 0, self.watch, nil
  if opts then
    priority = opts.priority == nil and 0 or opts.priority
    if type(priority) ~= "number" or not (priority > -math.huge and priority < math.huge) then
      argerror(4, "request", "priority must be a finite number, got " .. describe(priority))
    end
    if opts.watch ~= nil then watch = opts.watch end
    if type(watch) ~= "boolean" then argerror(4, "request", "watch must be a boolean, got " .. describe(watch)) end
    qopts = {}
    for k in pairs(opts) do
      if not REQUEST_OPTS[k] then qopts[k] = opts[k] end
    end
    if type(qopts.goals) == "table" then
      -- a copy: every search of the request (again after an invalidation)
      -- goes to the goals as they were requested
      local copy = {}
      for i, v in ipairs(qopts.goals) do
        copy[i] = type(v) == "table" and { v[1], v[2] } or v
      end
      qopts.goals = copy
    end
  end
  local r = {
    key = key, priority = priority, watch = watch, qopts = qopts,
    class = qopts and ("%s/%s/%s%s"):format(tostring(qopts.size), tostring(qopts.algorithm),
      tostring(qopts.any_angle), goals and "/goals" or "") or "",
    from = self.kind == "graph" and from or { from[1], from[2] },
    to = (self.kind ~= "graph" and to ~= nil) and { to[1], to[2] } or to,
    goals = goals and qopts.goals,
    vopts = qopts, -- path_valid's options: the query's but goals
  }
  if goals then
    r.vopts = {}
    for k, v in pairs(qopts) do
      if k ~= "goals" then r.vopts[k] = v end
    end
  end
  r.query = new_query(self, r, 2)  -- raises on a bad end or option, before anything changes
  local old = self.by_key[key]
  if old then drop(self, old); self.counts.cancelled = self.counts.cancelled + 1 end
  self.by_key[key] = r
  enqueue(self, r)
  self.counts.requested = self.counts.requested + 1
end

--- planner:cancel(key) -> true if the key had a request or a watched path.
-- Frees the search at once; a watched path is no longer checked.
function Planner:cancel(key)
  if getmetatable(self) ~= Planner then argerror(1, "cancel", "planner expected, got " .. describe(self)) end
  local r = key ~= nil and self.by_key[key]
  if not r then return false end
  drop(self, r)
  self.counts.cancelled = self.counts.cancelled + 1
  return true
end

--- planner:status(key) -> "queued", "searching", "watching" or nil.
function Planner:status(key)
  if getmetatable(self) ~= Planner then argerror(1, "status", "planner expected, got " .. describe(self)) end
  local r = key ~= nil and self.by_key[key]
  if not r then return nil end
  if r.queued then return r.spent > 0 and "searching" or "queued" end
  return "watching"
end

--- planner:pending() -> the number of requests waiting or being searched.
function Planner:pending()
  if getmetatable(self) ~= Planner then argerror(1, "pending", "planner expected, got " .. describe(self)) end
  return #self.queue
end

-- The head of the queue: the earliest effective order time (the frame of
-- the order less `aging` frames per priority level), then the earliest order.
-- Requests that spent their share of this frame (rested: their step ran
-- out of time but for the room kept to finish them) are passed over: what
-- is left goes to the next one.
local function head(self)
  local best, bt, bs = nil, math.huge, math.huge
  local aging, frame = self.aging, self.frame
  for _, r in ipairs(self.queue) do
    local t = r.ordered - r.priority * aging
    if r.rested ~= frame and (t < bt or (t == bt and r.seq < bs)) then best, bt, bs = r, t, r.seq end
  end
  return best
end

-- Where a watched path's unit stands: the index of its cell on the path,
-- searched forward from the last one found (units walk forward); a unit
-- that is not on it (joining it, pushed off) keeps the last index found, so
-- more of the path is checked, never less.  1 without `locate`.
local function progress(self, w)
  if not self.locate then return 1 end
  local a, b = self.locate(w.key)
  if a == nil then return w.progress end
  local id = a
  if self.kind ~= "graph" then
    if not (is_int(a) and is_int(b)) then return w.progress end
    local ok, v = pcall(self.topo.id, self.topo, a, b)
    if not ok then return w.progress end
    id = v
  end
  local nodes = w.path.nodes
  for i = w.progress, #nodes do
    if nodes[i] == id then w.progress = i; return i end
  end
  return w.progress
end

-- Watched paths are indexed by tiles of TILE x TILE cells: a path is listed
-- under every tile that holds a cell it steps on, its unit's block there, or
-- a cell next to those (the corners a diagonal step needs).  A changed cell
-- then names the few paths it can touch; only they are checked.
local TILE = 16

-- The keys of the watched paths that the cells changed since version `since`
-- may have broken (a set), or nil when every watched path must be checked:
-- graphs (no change log) and a log that overflowed.
local function suspects(self, since)
  local topo = self.topo
  if type(topo.changes) ~= "function" then return nil end -- graphs: no change log
  local log = topo:changes(since, 4096)                     -- nil, "overflow" past the log
  if not log then return nil end
  -- only a cell that is blocked or tagged now can break a path (an opened
  -- cell or a new cost cannot)
  local cells = {}
  for _, c in ipairs(log) do
    local x, y = topo:xy(c)
    if topo:is_blocked(x, y) or topo:get_tag(x, y) ~= nil then cells[#cells + 1] = c end
  end
  local w, index, found = self.width, self.tiles, {}
  for _, c in ipairs(cells) do
    local x, y = (c - 1) % w, math.floor((c - 1) / w)      -- 0-based
    local set = index[(math.floor(y / TILE) + 1) * self.tiles_w + math.floor(x / TILE) + 1]
    if set then
      for key in pairs(set) do found[key] = true end
    end
  end
  return found, cells
end

-- How far a unit of size k standing on cell (x, y) reaches, with the cells
-- next to its block: x - lo .. x + hi (and y the same).  Square grids: the
-- block x .. x + k - 1; hex grids: the cells within k - 1 steps, inside
-- x - (k - 1) .. x + k - 1.
local function extent(self, k)
  if self.hex then return k, k end
  return 1, k
end

-- The ids of the cells a unit of size k may stand on for its path to meet
-- a changed cell: its block covers it or is next to it.  A step of the
-- path can break only where the cell it enters is one of them (a diagonal
-- step's corners are next to both its cells).
local function reach(self, cells, k)
  local w, h = self.width, self.height
  local lo, hi = extent(self, k)
  local set = {}
  for _, c in ipairs(cells) do
    local x, y = (c - 1) % w + 1, math.floor((c - 1) / w) + 1
    for py = math.max(1, y - hi), math.min(h, y + lo) do
      for px = math.max(1, x - hi), math.min(w, x + lo) do
        set[(py - 1) * w + px] = true
      end
    end
  end
  return set
end

-- Checks the part of watched path w from entry `from` on against the
-- changed cells (set: reach's): only the steps into entries of the set can
-- have broken, so each run of such entries is given to path_valid with the
-- entry before it (a window of a few entries where the path crosses the
-- change), never the whole path.  true, or false and the first broken index.
local function check_windows(self, w, from, set)
  local nodes = w.path.nodes
  local n = #nodes
  local sub = self.scratch
  local win = sub.nodes
  sub.size = w.path.size
  local checked = false
  local i = from
  while i <= n do
    if set[nodes[i]] then
      local a = i > from and i - 1 or i
      local b = i
      while b < n and set[nodes[b + 1]] do b = b + 1 end
      local m = b - a + 1
      for j = 1, m do win[j] = nodes[a + j - 1] end
      for j = #win, m + 1, -1 do win[j] = nil end
      if not checked then
        checked = true
        self.counts.checks = self.counts.checks + 1
      end
      local ok, at = self.topo:path_valid(sub, 1, w.request.vopts)
      if not ok then return false, a + at - 1 end
      i = b + 2
    else
      i = i + 1
    end
  end
  return true
end

-- Watched path w (of key) is broken at index `broken`: reported, and its
-- request queued again from where the unit stands (its search is made when
-- it is first stepped).
local function invalidate(self, key, w, broken, out)
  unwatch(self, key)
  self.counts.invalidated = self.counts.invalidated + 1
  out[#out + 1] = { key = key, reason = "invalidated", broken = broken }
  local r = w.request
  if self.locate then
    local a, b = self.locate(key)
    if self.kind == "graph" then
      if is_int(a) then r.from = a end
    elseif is_int(a) and is_int(b) then
      r.from = { a, b }
    end
  end
  r.query = nil
  enqueue(self, r)
end

-- A forbid field that watched paths were made with changed (its version):
-- fields log no cells, so each of those paths is checked whole, from where
-- its unit stands.  A field that cannot say its version (closed) is left.
local function check_fields(self, out)
  for field, f in pairs(self.fields) do
    local ok, v = pcall(field.version, field)
    if ok and v ~= f.version then
      local list = {}
      for key in pairs(f.keys) do list[#list + 1] = key end
      for _, key in ipairs(list) do
        local w = self.watched[key]
        if w then
          local from = progress(self, w)
          self.counts.checks = self.counts.checks + 1
          local good, broken = self.topo:path_valid(w.path, from, w.request.vopts)
          if not good then invalidate(self, key, w, broken, out) end
        end
      end
      if self.fields[field] then self.fields[field].version = v end
    end
  end
end

-- The map changed since the last check: every watched path whose part ahead
-- of its unit crosses a changed cell is checked there (check_windows); a
-- broken one is reported and its request queued again, from where the unit
-- stands (its search is made when it is first stepped).
local function check_watched(self, out)
  local topo = self.topo
  local v = topo:version()
  if v == self.version then return end
  local since = self.version
  if next(self.watched) == nil then self.version = v; return end
  local found, cells = suspects(self, since)
  local list, near = {}, {}
  for key in pairs(found or self.watched) do list[#list + 1] = key end
  for _, key in ipairs(list) do
    local w = self.watched[key]
    if w then
      local from = progress(self, w)
      local ok, broken
      if cells then
        local k = w.request.qopts and w.request.qopts.size or 1
        local set = near[k]
        if not set then set = reach(self, cells, k); near[k] = set end
        ok, broken = check_windows(self, w, from, set)
      else                         -- graphs, a log that overflowed: the whole path
        self.counts.checks = self.counts.checks + 1
        ok, broken = topo:path_valid(w.path, from, w.request.vopts)
      end
      if not ok then invalidate(self, key, w, broken, out) end
    end
  end
  self.version = v                 -- only now: a callback that raised leaves them to check again
end

-- Starts watching a delivered path, listed under its tiles (cells only).
-- Every STRIDE-th entry is listed with a margin of STRIDE / 2 cells: an
-- entry between two listed ones is at most that far from one of them (a
-- path moves one cell per entry), so its tiles are listed too, at an eighth
-- of the work of listing every entry.
local STRIDE = 8

local function watch_path(self, r, path)
  if not (self.versions and r.watch and path.nodes and #path.nodes > 0) then
    self.by_key[r.key] = nil
    return
  end
  local w = { key = r.key, request = r, path = path, progress = 1, tiles = {} }
  unwatch(self, r.key)
  self.watched[r.key] = w
  local forbid = r.qopts and r.qopts.forbid
  if forbid ~= nil and type(forbid.version) == "function" then
    -- a forbid field: its changes can break the path too (check_fields)
    local f = self.fields[forbid]
    if not f then
      f = { version = forbid:version(), keys = {} }
      self.fields[forbid] = f
    end
    f.keys[r.key] = true
    w.field = forbid
  end
  if self.kind == "graph" then return end
  local width, tw, index, tiles, key = self.width, self.tiles_w, self.tiles, w.tiles, r.key
  local seen = {}
  local lo, hi = extent(self, r.qopts and r.qopts.size or 1)
  lo, hi = lo + STRIDE / 2, hi + STRIDE / 2
  local floor = math.floor
  local nodes = path.nodes
  local n = #nodes
  local i = 1
  while true do
    local id = nodes[i] - 1
    local x = id % width
    local y = (id - x) / width           -- 0-based
    for ty = floor((y - lo) / TILE), floor((y + hi) / TILE) do
      for tx = floor((x - lo) / TILE), floor((x + hi) / TILE) do
        local t = (ty + 1) * tw + tx + 1
        if not seen[t] then
          seen[t] = true
          tiles[#tiles + 1] = t
          local set = index[t]
          if not set then set = {}; index[t] = set end
          set[key] = true
        end
      end
    end
    if i == n then break end
    i = i + STRIDE
    if i > n then i = n end
  end
end

-- What finishing request r is expected to cost (seconds): its path built
-- and watched, measured: a cost per path plus one per path entry, times the
-- entries expected (the distance between its ends times the measured ratio
-- of entries to it; graphs, with no coordinates, the cost per path alone).
-- 0 until measured; at most half the frame's time (a path that costs more
-- to finish than that is finished all the same, past the budget).
local LONG_PATH = 64               -- entries: a path this long measures the cost per entry

-- The cell a grid request heads for, for these estimates: its goal, or
-- (goals = {...}) the goal nearest its start in rows or columns (a lower
-- bound of the path's length), kept until its start moves.
local function target(r)
  if r.to then return r.to end
  if r.near_from ~= r.from then
    local best, bd = r.from, math.huge
    for _, c in ipairs(r.goals) do
      local dx, dy = math.abs(c[1] - r.from[1]), math.abs(c[2] - r.from[2])
      local d = dx > dy and dx or dy
      if d < bd then best, bd = c, d end
    end
    r.near, r.near_from = best, r.from
  end
  return r.near
end

local function reserve(self, r, time)
  local c = self.fin_path or 0
  if self.kind ~= "graph" and self.fin_node then
    local to = target(r)
    local dx, dy = math.abs(to[1] - r.from[1]), math.abs(to[2] - r.from[2])
    c = c + self.fin_node * (dx > dy and dx or dy) * self.len_ratio
  end
  return math.min(c, 0.5 * time)
end

-- Learns from a finished request: what finishing it cost beyond its step's
-- time (cost, seconds) for a path of `len` entries.  Estimates rise at once
-- and fall slowly, so one cheap path does not make the next reserve short.
local function blend(old, e)
  if not old or e > old then return e end
  return 0.9 * old + 0.1 * e
end

local function learn(self, r, cost, len)
  if self.kind == "graph" or len < LONG_PATH then
    self.fin_path = blend(self.fin_path, cost)
    return
  end
  self.fin_node = blend(self.fin_node, math.max(0, cost - (self.fin_path or 0)) / len)
  local to = target(r)
  local dx, dy = math.abs(to[1] - r.from[1]), math.abs(to[2] - r.from[2])
  local d = dx > dy and dx or dy
  if d > 0 then
    local e, old = len / d, self.len_ratio
    self.len_ratio = e > old and old + 0.5 * (e - old) or 0.95 * old + 0.05 * e
  end
end

-- One step of r's query: at most n expansions (nil: no count) and at most
-- `time` seconds (nil: no time).  Returns the status and the expansions it
-- did.
local function step(self, r, n, time)
  local q, status = r.query, nil
  if time and self.timed_step == nil then
    -- does this build's step take { time = }?  A refusal of the table says
    -- no; any other error (a callback's) is the caller's
    local ok, err = pcall(q.step, q, { time = time, n = n })
    if ok then
      self.timed_step, status = true, q:status()
    elseif type(err) == "string" and err:find("n must be an integer", 1, true) then
      self.timed_step = false
    else
      error(err, 0)
    end
  end
  if status == nil and time and self.timed_step then
    -- the engine reads its clock in chunks sized from what its expansions
    -- cost, and an expansion's cost is bounded: the step ends within about
    -- one expansion of its time
    status = q:step({ time = time, n = n })
  elseif status == nil and time then
    -- without the engine's clock: a slice of expansions sized from the
    -- time per expansion measured so far (the first at `slice`), asking for
    -- half of what is left (then half of the rest ...), so a slice slower
    -- than measured overshoots by a fraction of the budget
    local est = self.per_exp[r.class]
    local k = est and math.floor(0.5 * time / est) or self.slice
    if k < 1 then k = 1 elseif k > 1e6 then k = 1e6 end
    if n and n < k then k = n end
    status = q:step(k)
  elseif status == nil then
    status = q:step(n)
  end
  local p, _, st = q:result()
  local total = (p or st).expanded or 0
  local did = total - r.spent
  if did < 0 then did = total end  -- the search began again (the map changed)
  if did < 1 then did = 1 end      -- every step counts: no loop without progress
  r.spent = total
  return status, did
end

-- Takes r out of the queue.
local function dequeue(self, r)
  r.queued = false
  local queue = self.queue
  for i = 1, #queue do
    if queue[i] == r then table.remove(queue, i); break end
  end
end

local function finish(self, r, status, out)
  local p, why = r.query:result()
  r.query:cancel()                 -- frees the search state now; the result stays
  r.query = nil
  dequeue(self, r)
  local waited = self.frame - r.ordered
  record(self.waits, waited)
  local res = { key = r.key, path = p, reason = not p and (why or status) or nil, waited = waited }
  out[#out + 1] = res
  if p then
    self.counts.delivered = self.counts.delivered + 1
    watch_path(self, r, p)
  else
    self.counts.failed = self.counts.failed + 1
    self.by_key[r.key] = nil
  end
  return p
end

-- The smallest time worth a step (seconds): less is left to the next frame
-- once something was stepped in this one.
local MIN_STEP_TIME = 20e-6

--- planner:update(budget) -> list of results.
-- budget: seconds (a number), or { time = seconds, expansions = n } (either
-- or both: whichever runs out first; expansions make a run reproducible).
-- Each result: { key =, path = } for a delivered path (path.partial as
-- find_path's), { key =, reason = } for a request that failed
-- ("unreachable" ...), { key =, reason = "invalidated", broken = i } for a
-- watched path the map's changes broke at index i (a new one is on its way);
-- delivered and failed results carry `waited`, the frames since the order.
function Planner:update(budget)
  if getmetatable(self) ~= Planner then argerror(1, "update", "planner expected, got " .. describe(self)) end
  local time, expansions
  if type(budget) == "number" then
    time = budget
  elseif type(budget) == "table" then
    for k in pairs(budget) do
      if k ~= "time" and k ~= "expansions" then
        argerror(1, "update", ("unknown budget field %s"):format(describe(k)))
      end
    end
    time, expansions = budget.time, budget.expansions
    if time == nil and expansions == nil then
      argerror(1, "update", "budget needs time or expansions")
    end
  else
    argerror(1, "update", "budget must be seconds or a table { time =, expansions = }, got " .. describe(budget))
  end
  if time ~= nil and (type(time) ~= "number" or not (time > 0 and time < math.huge)) then
    argerror(1, "update", "time must be a number of seconds > 0, got " .. describe(time))
  end
  if expansions ~= nil and (not is_int(expansions) or expansions < 1) then
    argerror(1, "update", "expansions must be an integer >= 1, got " .. describe(expansions))
  end
  local clock = self.clock
  local t0 = clock()
  self.frame = self.frame + 1
  -- results of an update that raised (a callback's error) are not lost:
  -- they come first in the next one
  local out = self.carry or {}
  self.carry = out
  if self.versions then check_watched(self, out) end
  if next(self.fields) ~= nil then check_fields(self, out) end
  local left, stepped, rested = expansions, false, false
  while #self.queue > 0 do
    if left and left < 1 then break end
    local r = head(self)
    if not r then break end
    local n, ask = left, nil
    if time then
      -- the head's step gets what is left but what finishing it would cost
      local room = reserve(self, r, time)
      ask = time - (clock() - t0) - room
      -- after a request rested, the next one gets what is left only if it
      -- is twice its room to finish: a short search with a long path would
      -- pass the budget by what its estimate missed
      if rested and ask < room then ask = 0 end
      if ask < MIN_STEP_TIME then
        if stepped then break end
        -- nothing stepped in this frame yet: one smallest slice all the
        -- same (a count), so the queue moves every frame (a bounded
        -- overshoot, no starving)
        ask = nil
        if not n or n > MIN_SLICE then n = MIN_SLICE end
      end
    end
    stepped = true
    local ok = true
    if not r.query then
      local okq, q = pcall(new_query, self, r, 1)
      if okq then
        r.query = q
      else                         -- the unit stands where no search can begin
        dequeue(self, r)
        self.by_key[r.key] = nil
        self.counts.failed = self.counts.failed + 1
        out[#out + 1] = { key = r.key, reason = "unreachable", waited = self.frame - r.ordered }
        ok = nil
      end
    end
    if ok then
      local t1 = clock()
      local status, did
      ok, status, did = pcall(step, self, r, n, ask)
      local dt = clock() - t1
      if ok and ask and not self.timed_step then
        local est, old = dt / did, self.per_exp[r.class]
        self.per_exp[r.class] = old and (0.7 * old + 0.3 * est) or est
      end
      if not ok then
        -- a callback of this request raised: the request is dropped (its
        -- query cannot go on) and the error reaches the caller with its value
        drop(self, r)
        self.counts.failed = self.counts.failed + 1
        error(status, 0)
      end
      self.counts.expansions = self.counts.expansions + did
      if left then left = left - did end
      if status == "searching" and ask and time - (clock() - t0) - reserve(self, r, time) < MIN_STEP_TIME then
        r.rested = self.frame      -- its time is spent; the room it kept, the next one's
        rested = true
      end
      if status ~= "searching" then
        local t2 = clock()
        local p = finish(self, r, status, out)
        -- what finishing cost: the step's time past what it was asked (the
        -- path is built when the search ends), and the results and watch
        local cost = clock() - t2 + (ask and math.max(0, dt - ask) or 0)
        learn(self, r, cost, p and p.nodes and #p.nodes or 0)
      end
    end
  end
  record(self.times, clock() - t0)
  self.carry = nil
  return out
end

--- planner:stats() -> { frames, requested, delivered, failed, cancelled,
-- invalidated, expansions, checks, pending, watching,
-- wait = { count, median, p99, max } (frames from order to result),
-- time = { count, median, p99, max } (seconds per update) }.
-- Medians and p99 are over the last 4096 values; max over all.
function Planner:stats()
  if getmetatable(self) ~= Planner then argerror(1, "stats", "planner expected, got " .. describe(self)) end
  local c = self.counts
  local watching = 0
  for _ in pairs(self.watched) do watching = watching + 1 end
  return {
    frames = self.frame, requested = c.requested, delivered = c.delivered, failed = c.failed,
    cancelled = c.cancelled, invalidated = c.invalidated, expansions = c.expansions,
    checks = c.checks, pending = #self.queue, watching = watching,
    wait = summary(self.waits), time = summary(self.times),
  }
end

function Planner:__tostring()
  return ("astar.Planner (%d pending, frame %d)"):format(#self.queue, self.frame)
end

return M
