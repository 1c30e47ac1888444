-- Lifetimes: "a call holds what it uses".  A library call (find_path, a
-- query step, distances, visible_from, to_string, landmarks,
-- cluster_heuristic, audit_heuristic) runs Lua code in its middle: Lua
-- callbacks, an __index of an argument table, and the finalizer (__gc) of
-- any object, which may run at any allocation inside the C function.  What
-- that code does to the objects the call uses must neither crash the call
-- nor change its answer:
--
--   1. close() (or __close) of a graph or grid the running call uses does not
--      raise: it takes effect when the call ends.  Until then every other
--      call on the object raises "attempt to use a closed grid" / "... graph"
--      and tostring says "astar.Grid (closed)"; the running call returns
--      exactly what it would have returned without the close.
--   2. q:cancel() while q is stepping (from its callback or a finalizer) does
--      not raise either: step returns its status as usual, then the query is
--      cancelled (status "cancelled", result nil, "cancelled", {}).
--   3. mutators of a topology a running search uses raise "cannot call
--      '<method>': grid is being searched" (graph: "graph is being
--      searched"); the searches: find_path, q:step, distances,
--      audit_heuristic, landmarks, cluster_heuristic.
--   4. a field a running search uses as penalty or forbid refuses set, fill
--      and add_disc: "cannot call 'set': field is being searched".
--   5. nested searches on the same topology (callbacks, finalizers) work and
--      leave the outer call's answer alone.
--   6. closing a topology cancels its running queries (step returns
--      "cancelled"); a finished query keeps its result.
--   7. os.exit(0, true) from a callback inside find_path exits 0 with no
--      definite leak (valgrind).
--   8. every object not closed stays usable.
--
-- The specs in spec/lifetime/ pin them, a concern a file:
--   reproducers_spec.lua  the issue's two reproducers (finalizers that close
--                         a grid in distances, that cancel a query in a step)
--   close_spec.lua        rule 1: close() from inside a call
--   cancel_spec.lua       rules 2 and 6: q:cancel() from inside its own step;
--                         closing a topology cancels its queries
--   locks_spec.lua        rules 3 and 4: the topology and field locks
--   nested_spec.lua       rule 5: nested searches
--   finalizers_spec.lua   rules 1 to 5 again, with finalizers inside every
--                         call (the finalizer matrix)
--   exit_spec.lua         rule 7: os.exit under valgrind
-- and rule 8 everywhere (usable below).
--
-- The finalizer specs make finalizers run inside each call (H.inside: the
-- collector is armed from a call hook at the library function's entry, so
-- its first allocation runs pending finalizers, and later ones too), with
-- objects whose finalizers act on the object of the call in flight; a
-- finalizer counts as inside the call when the library function is on the
-- stack (debug.getinfo).  Every call must have finalizers inside (set
-- LIFETIME_STATS=1 to see the counts), and every call's answer is checked
-- against a reference computed with no interference.  Finalizers record what they saw (errors are caught with
-- pcall) and the spec checks it afterwards: a finalizer's error is a
-- warning on 5.4 but propagates on 5.1 to 5.3.
--
-- Where the rules leave room, the specs pin:
--   - a call holds what it uses from its start: a finalizer counts as
--     inside as soon as the library function is on the stack, argument
--     checks included;
--   - the locks of rules 3 and 4 last the whole call, also while it builds
--     its result (the field of distances, the path and stats of a step);
--   - while a close waits, mutators too raise "attempt to use a closed
--     grid" (not "... is being searched");
--   - a cancel that waits for a step that finishes the query still cancels
--     it (rule 2), while a close that waits for such a step does not cancel
--     it: the query had finished (rule 6);
--   - visible_from and to_string are no searches: a mutation from inside
--     them may be refused ("grid is being searched", and nothing changes)
--     or done before they read the grid (their answer is the mutated
--     grid's); either passes.
--
-- This module holds what the specs share: the fixtures, their reference
-- answers (references(): computed on first use and cached, so once per
-- busted process however many spec files ask), digests that compare whole
-- results as one string, `inside`, the loop that makes finalizers run
-- inside a library call and counts them, and the checks.  Not a spec
-- (no _spec in its name): the spec files load it with
-- require("lifetime.common").
--
-- Portable across Lua 5.1, LuaJIT, 5.3 and 5.4 (no integer operators, no
-- goto; `<close>` only in chunks loaded on 5.4, in close_spec.lua).
local astar = require("astar")
local assert = require("luassert") -- a module has no busted environment
local error_of = require("helpers").error_of

local H = {}

local unpack = table.unpack or unpack

H.W, H.H = 24, 24          -- the grid fixture
H.GN = 8                   -- the graph fixture: an H.GN x H.GN lattice

--- pack(...) -> { n = select("#", ...), ... }
function H.pack(...) return { n = select("#", ...), ... } end

--- outcome(fn, ...) -> "no error", or the error message without its
-- "file:line: " prefix.
function H.outcome(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return "no error" end
  if type(err) == "string" then err = err:gsub("^[^\n]-:%d+: ", "", 1) end
  return tostring(err)
end

local function num(v) return ("%.17g"):format(v) end

-- ------------------------------------------------------------------------
-- fixtures
-- ------------------------------------------------------------------------

--- A 24 x 24 grid: a wall down column 12 (open below row 20), a strip of
-- mud (cost 3) and a tagged cell.  The way from (1, 1) to (24, 1) goes round
-- the wall's foot.
function H.new_grid()
  local g = astar.grid(H.W, H.H)
  for y = 1, 20 do g:set_blocked(12, y, true) end
  for x = 3, 8 do g:set_cost(x, 10, 3) end
  g:set_tag(5, 5, "door")
  return g
end

--- A field of the grid fixture's size with a danger disc near the route.
function H.new_penalty(g)
  local f = astar.field(g or astar.grid(H.W, H.H))
  f:add_disc(12, 22, 2, 4)
  return f
end

--- An 8 x 8 lattice graph: node (x, y) is (y - 1) * 8 + x, joined both ways
-- to its right and lower neighbours; costs vary, a few edges are tagged.
function H.new_graph()
  local g, n = astar.graph(), H.GN
  for y = 1, n do
    for x = 1, n do g:add_node(x, y) end
  end
  for y = 1, n do
    for x = 1, n do
      local id = (y - 1) * n + x
      local c = 1 + ((x * y) % 3) * 0.5
      if x < n then g:connect(id, id + 1, c, (x + y) % 5 == 0 and "door" or nil) end
      if y < n then g:connect(id, id + n, c + 0.25) end
    end
  end
  return g
end

H.GOAL = H.GN * H.GN       -- the graph fixture's far corner

-- ------------------------------------------------------------------------
-- digests: whole results as one string, so a spec compares them exactly
-- ------------------------------------------------------------------------

local function list(t)
  local out = {}
  for i = 1, #t do out[i] = tostring(t[i]) end
  return table.concat(out, ",")
end

--- A find_path result (or nil, reason, stats) as a string.
function H.path_digest(p, why, stats)
  if p == nil then
    stats = stats or {}
    return ("nil %s expanded=%s"):format(tostring(why), tostring(stats.expanded))
  end
  return ("cost=%s nodes=%s edges=%s expanded=%s reopened=%s generated=%s visited=%s trace=%s"):format(
    num(p.cost), list(p.nodes), p.edges and list(p.edges) or "-", tostring(p.expanded),
    tostring(p.reopened), tostring(p.generated), p.visited and #p.visited or "-",
    p.trace and #p.trace or "-")
end

--- Fingerprints: one short string per result, from sums over it, for the
-- finalizer specs (cheap to make and compare for every call).  Compare
-- fingerprints; on a mismatch, the digests show where.
local function weighted(t, m)
  local s = 0
  for i = 1, #t do s = s + t[i] * (i % m + 1) end
  return s
end

function H.path_print(p, why)
  if p == nil then return "nil " .. tostring(why) end
  return ("cost=%.17g n=%d %.17g %.17g %s %s %s %s %s"):format(p.cost, #p.nodes, weighted(p.nodes, 13),
    p.edges and weighted(p.edges, 11) or -1, tostring(p.expanded), tostring(p.reopened), tostring(p.generated),
    tostring(p.visited and #p.visited or -1), tostring(p.trace and #p.trace or -1))
end

function H.dist_print(dist, toward)
  local sd, st, infs = 0, 0, 0
  for i = 1, #dist do
    if dist[i] == math.huge then infs = infs + i else sd = sd + dist[i] * (i % 13 + 1) end
    st = st + (toward[i] or 0) * (i % 11 + 1)
  end
  return ("n=%d %.17g %.17g %d"):format(#dist, sd, st, infs)
end

local REPORT_KEYS = { "admissible", "consistent", "max_overestimate", "excess_bound", "max_inconsistency",
                      "violations", "overestimates", "checked", "steps", "samples" }
function H.report_print(r)
  local s, n = 0, 0
  for i, k in ipairs(REPORT_KEYS) do
    local v = r[k]
    if type(v) == "boolean" then v = v and 1 or 0 end
    if type(v) == "number" then s = s + v * (i + 1); n = n + 1 end
  end
  return ("%d %.17g"):format(n, s)
end

--- Every cell of a field, as a string.
function H.field_digest(f)
  local w, h = f:size()
  local out = {}
  for y = 1, h do
    for x = 1, w do out[#out + 1] = num(f:get(x, y)) end
  end
  return ("%dx%d "):format(w, h) .. table.concat(out, " ")
end

--- A field's fingerprint: a short string from a weighted sum over every cell
-- (no string per cell: the finalizer specs compare many fields).  Compare
-- fingerprints, and on a mismatch the digests (field_digest) to see where
-- they differ.
function H.field_print(f)
  local w, h = f:size()
  local sum, infs, c = 0, 0, 0
  for y = 1, h do
    for x = 1, w do
      local v = f:get(x, y)
      c = c + 1
      if v == math.huge then infs = infs + c else sum = sum + v * (c % 101 + 1) + v * v * (c % 7 + 1) end
    end
  end
  return ("%dx%d sum=%.17g inf=%d"):format(w, h, sum, infs)
end

--- graph:distances results (dist, toward) as a string.
function H.dist_digest(dist, toward)
  local out = {}
  for i = 1, #dist do out[i] = num(dist[i]) .. ">" .. tostring(toward[i]) end
  return table.concat(out, " ")
end

--- diff(got, want) -> nil when the digests are equal, else how they
-- differ (the count of differing words and the first), short enough for an
-- assertion message.
function H.diff(got, want)
  if got == want then return nil end
  local a, b = {}, {}
  for w in tostring(got):gmatch("%S+") do a[#a + 1] = w end
  for w in tostring(want):gmatch("%S+") do b[#b + 1] = w end
  local bad, first = 0, nil
  for i = 1, math.max(#a, #b) do
    if a[i] ~= b[i] then
      bad = bad + 1
      first = first or ("word %d is %s, expected %s"):format(i, tostring(a[i]), tostring(b[i]))
    end
  end
  local show = function(s) s = tostring(s) return #s > 160 and s:sub(1, 160) .. "..." or s end
  return ("%d of %d words differ (%s)\n got:      %s\n expected: %s"):format(bad, #b, first or "?",
    show(got), show(want))
end

--- An audit report as a string (keys sorted).
function H.report_digest(r)
  local keys, out = {}, {}
  for k in pairs(r) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = r[k]
    out[#out + 1] = k .. "=" .. (type(v) == "number" and num(v) or tostring(v))
  end
  return table.concat(out, " ")
end

-- the pairs a heuristic object is sampled at (grid cells; graph nodes)
local GRID_PAIRS = { { 1, 1, 24, 1 }, { 1, 24, 24, 24 }, { 13, 22, 1, 1 }, { 24, 1, 1, 1 }, { 6, 10, 20, 3 } }
local GRAPH_PAIRS = { { 1, 64 }, { 64, 1 }, { 8, 57 }, { 30, 5 }, { 12, 12 } }

--- A heuristic object built by landmarks or cluster_heuristic, as a string:
-- its tostring and its values at fixed pairs, or the error its :value
-- raises (a heuristic of a closed topology cannot be evaluated).
function H.heur_digest(h, topo_kind)
  local out = { tostring(h) }
  for _, p in ipairs(topo_kind == "grid" and GRID_PAIRS or GRAPH_PAIRS) do
    local ok, v = pcall(h.value, h, unpack(p))
    if ok then out[#out + 1] = num(v) else out[#out + 1] = H.outcome(h.value, h, unpack(p)) end
  end
  return table.concat(out, " | ")
end

--- Everything a grid or graph holds, as a string (spec/worlds.lua).
H.grid_snapshot = require("worlds").grid_snapshot
H.graph_snapshot = require("worlds").graph_snapshot

--- The mutators of each topology, each with the call that exercises it.
H.GRID_MUTATORS = {
  { "set_blocked", function(g) g:set_blocked(2, 2, true) end },
  { "set_cost", function(g) g:set_cost(3, 3, 5) end },
  { "set_tag", function(g) g:set_tag(4, 4, "mud") end },
}
H.GRAPH_MUTATORS = {
  { "add_node", function(g) g:add_node(0, 0) end },
  { "add_edge", function(g) g:add_edge(1, 2, 1) end },
  { "connect", function(g) g:connect(1, 2, 1, "door") end },
  { "set_cost", function(g) g:set_cost(1, 9) end },
  { "set_enabled", function(g) g:set_enabled(2, false) end },
}

--- Runs every mutator of topology g (kind "grid" or "graph") and returns
-- their outcomes, in order: { "cannot call 'set_blocked': grid is being
-- searched", ... } while a search holds g.
function H.try_mutators(g, kind)
  local out = {}
  for i, m in ipairs(kind == "grid" and H.GRID_MUTATORS or H.GRAPH_MUTATORS) do
    out[i] = H.outcome(m[2], g)
  end
  return out
end

--- What try_mutators returns while a search holds a topology of that kind.
function H.refused(kind)
  local out = {}
  for i, m in ipairs(kind == "grid" and H.GRID_MUTATORS or H.GRAPH_MUTATORS) do
    out[i] = ("cannot call '%s': %s is being searched"):format(m[1], kind)
  end
  return out
end

--- The field methods that write, each with its call.
H.FIELD_WRITERS = {
  { "set", function(f) f:set(1, 1, 7) end },
  { "fill", function(f) f:fill(2) end },
  { "add_disc", function(f) f:add_disc(3, 3, 2, 1) end },
}

function H.try_field_writers(f)
  local out = {}
  for i, m in ipairs(H.FIELD_WRITERS) do out[i] = H.outcome(m[2], f) end
  return out
end

function H.field_refused()
  local out = {}
  for i, m in ipairs(H.FIELD_WRITERS) do
    out[i] = ("cannot call '%s': field is being searched"):format(m[1])
  end
  return out
end

-- ------------------------------------------------------------------------
-- finalizers inside a call, on purpose
-- ------------------------------------------------------------------------

-- Where a finalizer runs: at a collector step, and a step runs only where
-- the running code allocates through Lua (a table, a string, a userdata;
-- in a C function, at a lua_newtable, lua_pushstring, ...).  So instead of
-- waiting for the collector's rhythm to put one inside the call, H.inside
-- arms the collector at the call's entry:
--
--   1. a reserve of finalizers waits in the collector's finalizer phase:
--      BOMBS objects with finalizers are dropped and the collector stepped
--      (small steps, CHUNK kilobytes each) until the first of them has run;
--      the cycle has then queued all of them (they were unreachable at its
--      atomic phase), and it stays in that phase while any is queued.  The
--      collector is stopped between calls, so that nothing else uses them
--      up, and the reserve serves call after call (refilled when low: one
--      collector cycle per refill, whatever the size of the heap);
--   2. a call hook (debug.sethook, "c") waits for the library function fn;
--      at fn's entry, before its body runs, it removes itself and restarts
--      the collector owing a step at its next check (5.1, LuaJIT:
--      threshold = heap size; 5.3, 5.4: debt 0); nothing checks between
--      there and the body (but on 5.1: see arm);
--   3. fn's body runs: its first allocation runs a step, which runs queued
--      finalizers inside the call; with small steps (the step multiplier
--      lowest: one finalizer a step on 5.1 and LuaJIT, ten on 5.4, a
--      doubling batch on 5.3) the rest follow at later allocations (every
--      kilobyte or so; on 5.1 at every one) to the call's end while any
--      remain; at the call's return the collector stops again.
--
-- Lua 5.1, LuaJIT, 5.3 and 5.4 all call hooks on C functions and run
-- finalizers at allocations of the C API with hooks off, so this is the
-- same on each; what differs is only how many finalizers a step runs.
-- The binding's protected functions take their holds before their first
-- allocation (see run_protected in src/lobject.c), so the first finalizer
-- inside finds the call holding what it uses.
--
-- Nothing here waits for the collector, the scheduler or the clock: the
-- same build runs the same finalizers at the same allocations every time,
-- and a call with no finalizer inside fails at once (the arming broke).
--
-- The spec files that use H.inside set small steps around it:
-- setup(H.small_steps), teardown(H.default_steps).

local BOMBS = 4096 -- finalizers queued by a refill
local LOW = 512    -- fewer queued than this: refill before the next call
-- kilobytes of debt per positioning step: 5.3 pays at least 2.4 thousand
-- work units a step and runs finalizers at 7 units each
local CHUNK = _VERSION == "Lua 5.3" and 8 or 64
-- collectgarbage("step", n) takes kilobytes up to 5.4, bytes from 5.5 on
local LUA55 = _VERSION == "Lua 5.5"
local STEP = LUA55 and CHUNK * 1024 or CHUNK
local LUA51 = _VERSION == "Lua 5.1" and not jit -- PUC-Rio 5.1 (see arm in H.inside)
local BIG, arms = LUA51 and ("x"):rep(131072), 0

--- finalizing(gc) -> make: make() returns a new object whose finalizer is
-- gc() (all share one metatable): a table on 5.2+, a newproxy userdata on
-- 5.1 and LuaJIT (which ignore __gc on tables).
function H.finalizing(gc)
  if newproxy then
    local proto = newproxy(true)
    getmetatable(proto).__gc = gc
    return function() return newproxy(proto) end
  end
  local mt = { __gc = gc }
  return function() return setmetatable({}, mt) end
end

--- on_stack(fn): true when function fn has a frame on the current call
-- stack (so a finalizer that asks runs inside a call of fn).
function H.on_stack(fn)
  for level = 2, 200 do
    local info = debug.getinfo(level, "f")
    if not info then return false end
    if info.func == fn then return true end
  end
  return false
end

--- small_steps(): the collector in small incremental steps (see above)
-- until default_steps() puts back the settings found (5.4: the mode too,
-- generational in the lua5.4 interpreter; the step size has no getter:
-- back to the default, 13).  5.5 sets them through "param" (the step size
-- in bytes, with a getter; a step multiplier of 1 does one finalizer a step).
local saved
function H.small_steps()
  if saved then return end
  if LUA55 then
    saved = { mode = collectgarbage("incremental"), pause = collectgarbage("param", "pause", 100),
      mul = collectgarbage("param", "stepmul", 1), size = collectgarbage("param", "stepsize", 1024) }
    return
  end
  saved = { pause = collectgarbage("setpause", 100), mul = collectgarbage("setstepmul", 1) } -- 5.3: 40 at least
  if _VERSION == "Lua 5.4" then saved.mode = collectgarbage("incremental", 100, 1, 1) end
end

function H.default_steps()
  if not saved then return end
  collectgarbage("restart")
  if saved.size then
    collectgarbage("param", "pause", saved.pause)
    collectgarbage("param", "stepmul", saved.mul)
    collectgarbage("param", "stepsize", saved.size)
    collectgarbage(saved.mode)
  elseif saved.mode then
    collectgarbage("incremental", saved.pause, saved.mul, 13)
    if saved.mode == "generational" then collectgarbage("generational") end
  else
    collectgarbage("setpause", saved.pause)
    collectgarbage("setstepmul", saved.mul)
  end
  saved = nil
end

-- The reserve: the newest refill's finalizers, made and run so far; the
-- finalizer of any refill reports to on_fire (set while H.inside runs).
local batch, on_fire = { made = 0, fired = 0 }, nil

-- A new reserve in the finalizer phase (1 above).  Its finalizers are its
-- own (a new metatable), so the first of them to run says the cycle
-- queued them all, whatever is left of older ones.
local function refill()
  local new = { made = BOMBS, fired = 0 }
  local make = H.finalizing(function()
    new.fired = new.fired + 1
    if on_fire then on_fire() end
  end)
  collectgarbage("stop") -- no step while they are made: one atomic phase must see them all
  for _ = 1, BOMBS do make() end
  -- 5.5: a step's work is the step size times the multiplier, whatever
  -- debt it is given (5.4's grows with the debt): at H.small_steps'
  -- multiplier a cycle over a big heap would take millions of steps, so
  -- the positioning steps use the default one (a few dozen finalizers a
  -- step at most, never the whole reserve)
  local mul = LUA55 and collectgarbage("param", "stepmul", 200)
  local steps = 0
  while new.fired == 0 do
    steps = steps + 1
    if steps > 100000 then error("the collector ran no finalizer in 100000 steps", 0) end
    collectgarbage("step", STEP)
  end
  collectgarbage("stop") -- (a step restarts the 5.1 and LuaJIT collectors)
  if mul then collectgarbage("param", "stepmul", mul) end
  if new.fired == new.made then error("the collector ran every finalizer of a refill at once", 0) end
  batch = new
end

--- inside(t) -> stats.  Runs t.call(ctx) (ctx = t.setup(round, shared);
-- shared: a table kept across the rounds, for fixtures that serve many)
-- with finalizers made to run inside its call of t.fn, the library function
-- under test, then t.check(ctx, results) (results: the packed pcall
-- results).  The finalizers that run inside are counted (ctx.inside); the
-- k-th of them and the (t.acts or 2) - 1 after it run t.act(ctx) (ctx.fired
-- counts those; an error an act raises lands in ctx.act_errors).  Round 1
-- acts at the first finalizer inside the call, the next rounds at the 4th,
-- 16th, 64th, ... as long as the rounds before had that many: the act
-- happens at the call's first allocation, then at later and later ones.
-- Raises when a call had no finalizer inside.  Returns { calls =, hits =
-- (calls with a finalizer inside: all), acted = (calls in which t.act
-- ran), inside = (finalizers inside the calls), refills = }.
function H.inside(t)
  assert(saved, "H.inside needs small collector steps: setup(H.small_steps)")
  local fn, acts, name = t.fn, t.acts or 2, t.name or "?"
  local stats = { calls = 0, hits = 0, acted = 0, inside = 0, refills = 0 }
  local ctx -- the call in flight, from fn's entry
  local function fire()
    -- inside: fn on the stack (quick to find from there: a level or three
    -- up); ctx is still set for a moment after fn returns.  On 5.1 a
    -- finalizer whose caller is fn itself runs at fn's entry, before the
    -- body (see arm): not inside either.
    if ctx == nil or not H.on_stack(fn) then return end
    if LUA51 and debug.getinfo(3, "f").func == fn then return end
    stats.inside = stats.inside + 1
    ctx.inside = ctx.inside + 1
    if ctx.inside < ctx.k or ctx.inside >= ctx.k + acts then return end
    ctx.fired = ctx.fired + 1
    if t.act then
      local ok, err = pcall(t.act, ctx)
      if not ok then ctx.act_errors[#ctx.act_errors + 1] = tostring(err) end
    end
  end

  -- at fn's entry (2 above)
  local function arm(round)
    collectgarbage("restart")
    if LUA51 then
      -- 5.1's lua_call (the hook's, in ldblib) checks the collector after
      -- the call: a step at fn's entry, which runs one finalizer (ignored:
      -- its caller is fn) and would put the next step a kilobyte later.
      -- A concatenation checks after it allocates: 128 kilobytes made now
      -- leave the steps from here a debt of that much, and while it lasts
      -- every check steps, the hook's and then every one in the body.
      arms = arms + 1
      local _ = BIG .. arms -- (a new string each time: 5.1 interns them)
    end
    ctx = round
  end

  -- LuaJIT: the interpreter only while this runs.  With the compiler on,
  -- 1 run in 15 of these specs had a call with no finalizer inside
  -- (LuaJIT runs none while a trace runs: the likely cause); with it off,
  -- none in 30.  The binding's C functions are called the same way.
  local jit_was_on = jit and jit.status()
  if jit_was_on then jit.off() end
  local shared, most, k = {}, 0, 1
  on_fire = fire
  local ok, err = pcall(function()
    while true do
      local round = t.setup and t.setup(stats.calls + 1, shared) or {}
      round.inside, round.fired, round.act_errors, round.k = 0, 0, {}, k
      if batch.made - batch.fired < LOW then
        refill()
        stats.refills = stats.refills + 1
      end
      collectgarbage("stop")
      local entered = false
      debug.sethook(function()
        if debug.getinfo(2, "f").func ~= fn then return end
        debug.sethook()
        entered = true
        arm(round)
      end, "c")
      round.calling = true
      local res = H.pack(pcall(t.call, round))
      debug.sethook()
      collectgarbage("stop")
      ctx, round.calling = nil, false
      stats.calls = stats.calls + 1
      if not entered then error(name .. ": the call never entered the function under test", 0) end
      if round.inside == 0 then
        error(("%s: no finalizer ran inside the call (%s)"):format(name, res[1] and "it returned"
          or "it raised: " .. tostring(res[2])), 0)
      end
      stats.hits = stats.hits + 1
      if round.fired > 0 then stats.acted = stats.acted + 1 end
      t.check(round, res)
      if os.getenv("LIFETIME_STATS") then
        io.stderr:write(("\n[inside] %-58s round %d: act at %3d, %4d finalizers inside, %d queued"):format(
          name, stats.calls, k, round.inside, batch.made - batch.fired))
      end
      if round.inside > most then most = round.inside end
      k = k * 4
      if k > most then break end
    end
  end)
  debug.sethook()
  on_fire, ctx = nil, nil
  collectgarbage("restart")
  if jit_was_on then jit.on() end
  if not ok then error(err, 0) end
  return stats
end

-- ========================================================================
-- shared by the spec files: method tables, search options, references,
-- checks
-- ========================================================================

local outcome = H.outcome
local W = H.W
local GOAL = H.GOAL
local D = astar.DIAGONAL
H.D = D

-- the method tables (the library functions H.inside looks for on the stack)
H.GRID = getmetatable(astar.grid(1, 1)).__index
H.GRAPH = getmetatable(astar.graph()).__index
H.QUERY = getmetatable(astar.grid(1, 1):query(1, 1, 1, 1)).__index

-- every search of the specs: Dijkstra order (many expansions, so many allocations
-- in push_stats), with the trace and the visited list
local PATH_OPTS = { heuristic = "zero", trace = true, visited = true }
local function path_opts(extra)
  local o = {}
  for k, v in pairs(PATH_OPTS) do o[k] = v end
  for k, v in pairs(extra or {}) do o[k] = v end
  return o
end

local function octile(x, y, gx, gy)
  local dx, dy = math.abs(x - gx), math.abs(y - gy)
  return math.max(dx, dy) + (D - 1) * math.min(dx, dy)
end

local function euclid_graph(g)
  return function(a, b)
    local ax, ay = g:position(a)
    local bx, by = g:position(b)
    return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
  end
end

-- ------------------------------------------------------------------------
-- references: every answer the specs expect, computed once with no
-- interference
-- ------------------------------------------------------------------------

--- references() -> REF, the reference answers: computed on the first call
-- (at the load of the first spec file that asks, under the default collector
-- settings) and cached in this module, which busted loads once for all the
-- spec files it runs.
local cache
function H.references()
  if cache then return cache end
  local REF = {}
  local g = H.new_grid()
  REF.grid_path = H.path_digest(g:find_path(1, 1, W, 1, PATH_OPTS))
  local plain = g:find_path(1, 1, W, 1)
  REF.grid_plain = H.path_digest(plain)
  REF.grid_route = plain.nodes
  REF.grid_pen_path = H.path_digest(g:find_path(1, 1, W, 1, path_opts({ penalty = H.new_penalty(g) })))
  REF.grid_field = H.field_digest(g:distances({ { 1, 1 } }))
  REF.grid_field_print = H.field_print(g:distances({ { 1, 1 } }))
  REF.grid_pen_field = H.field_digest(g:distances({ { 1, 1 } }, { penalty = H.new_penalty(g) }))
  REF.grid_string = g:to_string(plain.nodes)
  REF.grid_snapshot = H.grid_snapshot(g)
  REF.penalty = H.field_digest(H.new_penalty(g))
  REF.grid_audit = H.report_digest(astar.audit_heuristic(g, "octile", { samples = 2 }))
  REF.grid_audit_lua = H.report_digest(astar.audit_heuristic(g, octile, { samples = 2 }))
  -- a forbidden gate across the route's way round the wall
  local forbid = astar.field(g)
  for y = 21, 23 do forbid:set(12, y, 1) end
  REF.grid_forbid_path = H.path_digest(g:find_path(1, 1, W, 1, path_opts({ forbid = forbid })))

  local gr = H.new_graph()
  REF.graph_path = H.path_digest(gr:find_path(1, GOAL, PATH_OPTS))
  REF.graph_plain = H.path_digest(gr:find_path(1, GOAL))
  REF.graph_dist = H.dist_digest(gr:distances({ 1 }))
  REF.graph_snapshot = H.graph_snapshot(gr)
  REF.graph_audit = H.report_digest(astar.audit_heuristic(gr, "euclidean", { samples = 2 }))
  REF.graph_audit_lua = H.report_digest(astar.audit_heuristic(gr, euclid_graph(gr), { samples = 2 }))
  cache = REF
  return REF
end

-- a query's whole story after a call: what the call returned, the status,
-- the status of one more step (to the end when it was still searching),
-- the result and the word tostring starts with
local function query_digest(q, returned)
  local out = { tostring(returned), q:status() }
  out[#out + 1] = q:step()
  local p, why, stats = q:result()
  out[#out + 1] = H.path_digest(p, why, stats)
  out[#out + 1] = p and "path" or type(stats) -- (nil, reason, stats: a table)
  out[#out + 1] = tostring(q):match("^astar%.Query %((%a+)") or tostring(q)
  return table.concat(out, " | ")
end

-- the story of a query cancelled while a step returned `returned`
local function cancelled_story(returned)
  return table.concat({ returned, "cancelled", "cancelled", "nil cancelled expanded=nil", "table", "cancelled" },
    " | ")
end

-- ------------------------------------------------------------------------
-- checks
-- ------------------------------------------------------------------------

local function same(want, got, what)
  local d = H.diff(got, want)
  assert(d == nil, (what or "result") .. ": " .. tostring(d))
end

--- A normal search on g gives the reference answer (rule 8).
local function usable(g, kind)
  local REF = H.references()
  if kind == "grid" then
    same(REF.grid_plain, H.path_digest(g:find_path(1, 1, W, 1)), "a later find_path")
  else
    same(REF.graph_plain, H.path_digest(g:find_path(1, GOAL)), "a later find_path")
  end
end

--- What other calls on a topology say while its close waits for the call
-- that holds it.
local function window(o, kind)
  local t = { tostring = tostring(o) }
  if kind == "grid" then
    t.size = outcome(o.size, o)
    t.find_path = outcome(o.find_path, o, 1, 1, 2, 2)
    t.query = outcome(o.query, o, 1, 1, 2, 2)
    t.set_blocked = outcome(o.set_blocked, o, 1, 1, true)
    t.field = outcome(astar.field, o)
  else
    t.node_count = outcome(o.node_count, o)
    t.find_path = outcome(o.find_path, o, 1, 2)
    t.query = outcome(o.query, o, 1, 2)
    t.add_node = outcome(o.add_node, o, 0, 0)
  end
  return t
end

local function closed_window(kind)
  local msg = "attempt to use a closed " .. kind
  if kind == "grid" then
    return { tostring = "astar.Grid (closed)", size = msg, find_path = msg, query = msg, set_blocked = msg,
             field = msg }
  end
  return { tostring = "astar.Graph (closed)", node_count = msg, find_path = msg, query = msg, add_node = msg }
end

--- o is closed for good: tostring, a method, and close stays idempotent.
local function assert_closed(o, kind)
  assert.equal(kind == "grid" and "astar.Grid (closed)" or "astar.Graph (closed)", tostring(o))
  assert.equal("attempt to use a closed " .. kind, error_of(kind == "grid" and o.size or o.node_count, o))
  assert.equal(0, select("#", o:close()))
  assert.equal("attempt to use a closed " .. kind, error_of(o.find_path, o, 1, 1, 1, 1))
end

local function new_topo(kind) if kind == "grid" then return H.new_grid() end return H.new_graph() end

-- the search a callback or finalizer runs on the topology in use
local function nested_search(g, kind)
  if kind == "grid" then return H.path_digest(g:find_path(1, 1, W, 1)) end
  return H.path_digest(g:find_path(1, GOAL))
end
local function plain_ref(kind)
  local REF = H.references()
  return kind == "grid" and REF.grid_plain or REF.graph_plain
end

-- find_path, query and distances on either topology, with a callback
local function do_find_path(g, kind, opts)
  if kind == "grid" then return g:find_path(1, 1, W, 1, opts) end
  return g:find_path(1, GOAL, opts)
end
local function do_query(g, kind, opts)
  if kind == "grid" then return g:query(1, 1, W, 1, opts) end
  return g:query(1, GOAL, opts)
end
local function do_distances(g, kind, opts)
  if kind == "grid" then return H.field_digest(g:distances({ { 1, 1 } }, opts)) end
  return H.dist_digest(g:distances({ 1 }, opts))
end
local function path_ref(kind)
  local REF = H.references()
  return kind == "grid" and REF.grid_path or REF.graph_path
end
local function dist_ref(kind)
  local REF = H.references()
  return kind == "grid" and REF.grid_field or REF.graph_dist
end

-- a callback that returns what the search would use anyway (0 for the
-- heuristic: PATH_OPTS's "zero"; the given cost), after calling hook()
local function passthrough(which, kind, hook)
  return function(...)
    hook()
    if which == "heuristic" then return 0 end
    return (select(kind == "grid" and 5 or 3, ...))
  end
end

H.PATH_OPTS, H.path_opts, H.octile, H.euclid_graph = PATH_OPTS, path_opts, octile, euclid_graph
H.query_digest, H.cancelled_story = query_digest, cancelled_story
H.same, H.usable, H.window, H.closed_window, H.assert_closed = same, usable, window, closed_window, assert_closed
H.new_topo, H.nested_search, H.plain_ref = new_topo, nested_search, plain_ref
H.do_find_path, H.do_query, H.do_distances = do_find_path, do_query, do_distances
H.path_ref, H.dist_ref, H.passthrough = path_ref, dist_ref, passthrough

return H
