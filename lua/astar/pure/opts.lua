--- astar.pure.opts (internal): search options read as the native module
-- reads them (lopts.c): the table's own keys must all be options of this
-- kind of search; values are read with ordinary indexing.
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local describe = U.describe
local argerr = U.argerr
local floor, huge = math.floor, math.huge

local M = {}

M.HEURISTICS = { "zero", "euclidean", "manhattan", "octile", "chebyshev", "bisector", "full_bisector" }
local H_ID = {}
for i, n in ipairs(M.HEURISTICS) do H_ID[n] = i end
M.H_CALLBACK = 0
M.registry = {}  -- register_heuristic's names

local STOPS = { "expand", "first_hit", "optimal" }
local TIES = { "high_g", "fifo" }
local ALGORITHMS = { "auto", "astar", "jps", "jps+" }
local DIRECTIONS = { "from_sources", "to_sources" }
-- "repair" (the native default) is accepted and begins again: the pure-Lua
-- backend keeps no change log, so it restarts where the native module
-- repairs (counted in restarts, as the native module counts the queries it
-- cannot repair); the answers are the same
local ON_CHANGE = { "repair", "restart", "fail" }

-- name -> path, distances, query-only
local OPTIONS = {
  penalty = { true, true }, forbid = { true, true }, heuristic = { true, false },
  weight = { true, false }, stop = { true, false }, tie_break = { true, false },
  costs = { true, true }, cost = { true, true }, penalty_scale = { true, true },
  max_expansions = { true, false }, max_cost = { true, true }, size = { true, true },
  trace = { true, false }, visited = { true, false }, partial = { true, false },
  algorithm = { true, false }, direction = { false, true }, smooth = { true, false },
  any_angle = { true, false }, on_change = { false, false, true }, start_blocked = { true, false },
}
M.ORDER = { "penalty", "forbid", "heuristic", "weight", "stop", "tie_break", "costs", "cost",
  "penalty_scale", "max_expansions", "max_cost", "size", "trace", "visited", "partial", "algorithm",
  "direction", "smooth", "any_angle", "on_change", "start_blocked" }

function M.options_table()
  local t = {}
  for name, a in pairs(OPTIONS) do
    t[name] = { path = a[1], distances = a[2], grids_only = name == "penalty" or name == "forbid"
      or name == "penalty_scale" or name == "size" or name == "smooth" or name == "any_angle"
      or name == "start_blocked",
      query = a[3] == true }
  end
  return t
end

local function flag(fname, arg, v, name)
  if type(v) ~= "boolean" then argerr(fname, arg, ("%s must be a boolean, got %s"):format(name, describe(v)), true) end
  return v
end

--- parse(g, fname, arg, opts, kind) -> o.  kind: "path", "query" or "distances".
-- o holds: h (heuristic id, 0 = callback), hfn, weight, stop (1..3), fifo,
-- tagf (factors by tag number, false = forbid) or nil, forbidtags,
-- penalty, pscale, forbid (fields), costfn, max_exp, max_cost, trace,
-- visited, partial, algorithm (1..4), reverse, on_change (1..3: repair, restart, fail)
function M.parse(g, fname, arg, opts, kind)
  local o = { h = nil, weight = 1, stop = 1, fifo = false, pscale = 1, max_cost = huge,
    algorithm = 1, reverse = true, on_change = 1, size = 1 }
  if opts ~= nil then
    if type(opts) ~= "table" then U.type_error(fname, arg, "table", opts, true) end
    for k in pairs(opts) do
      local a = type(k) == "string" and OPTIONS[k]
      local for_path = kind ~= "distances"
      if not a or (for_path and not (a[1] or a[3])) then
        argerr(fname, arg, ("unknown option %s"):format(describe(k)), true)
      end
      if a[3] and kind ~= "query" then
        argerr(fname, arg, ('option "%s" is only for queries (query())'):format(k), true)
      end
      if not for_path and not a[2] then
        argerr(fname, arg, ('option "%s" does not apply to distances'):format(k), true)
      end
    end
    local given = {}
    for _, name in ipairs(M.ORDER) do
      local v = opts[name]
      local applies = OPTIONS[name][kind == "distances" and 2 or 1] or (name == "on_change" and kind == "query")
      if v ~= nil and applies then
        given[name] = true
        M[name](o, g, fname, arg, v)
      end
    end
    if o.any_angle or o.smooth then
      if o.any_angle then
        for _, n in ipairs({ "cost", "heuristic", "stop", "tie_break", "trace", "algorithm" }) do
          if given[n] then argerr(fname, arg, ('option "%s" cannot be combined with any_angle'):format(n), true) end
        end
      end
      if o.smooth and given.cost then argerr(fname, arg, 'option "cost" cannot be combined with smooth', true) end
      U.raise(('option "%s" needs the native module (astar.core)'):format(o.any_angle and "any_angle" or "smooth"))
    end
  end
  if kind ~= "distances" and o.h == nil then
    M.heuristic(o, g, fname, arg, g.rule == 1 and "manhattan" or "octile")
  end
  if o.size > 1 then U.raise("option \"size\" above 1 needs the native module (astar.core)") end
  if kind ~= "distances" and o.algorithm == 3 then
    local why = M.jps_refusal(g, o)
    if why then argerr(fname, arg, ('algorithm "jps" does not apply to this query (%s)'):format(why), true) end
  end
  -- the jump table (grid:precompute_jumps) is the native module's
  if kind ~= "distances" and o.algorithm == 4 then U.raise('algorithm "jps+" needs the native module (astar.core)') end
  return o
end

--- why jump point search cannot serve query o on g (nil: it can)
function M.jps_refusal(g, o)
  if g.rule == 3 then return "diagonal rule one_obstacle" end
  if g.rule == 4 then return "diagonal rule always" end
  if g.cost then return "cell costs" end
  if g.tag and o.tagf then
    for t = 1, #g.tagnames do
      if o.tagf[t] ~= 1 then return "tag costs" end
    end
  end
  if o.penalty then return "penalty" end
  if o.forbid then return "forbid" end
  if o.costfn then return "cost callback" end
  if o.weight ~= 1 then return "weight other than 1" end
  return nil
end

function M.heuristic(o, _, fname, arg, v)
  if type(v) == "string" then
    local r = M.registry[v]
    if r ~= nil then v = r end
  end
  if U.is_callable(v) then
    o.h, o.hfn = 0, v
  else
    o.h = H_ID[U.choice(fname, arg, v, "heuristic", M.HEURISTICS, "a function, a registered name or ", true)
      and v]
  end
end

function M.weight(o, _, fname, arg, v)
  if type(v) ~= "number" or not (v >= 0) or v == huge then
    argerr(fname, arg, ("weight must be a finite number >= 0, got %s"):format(describe(v)), true)
  end
  o.weight = v
end

function M.stop(o, _, fname, arg, v) o.stop = U.choice(fname, arg, v, "stop", STOPS, "", true) end
function M.tie_break(o, _, fname, arg, v) o.fifo = U.choice(fname, arg, v, "tie_break", TIES, "", true) == 2 end

local function factor(fname, arg, v, k)
  if v == false then return false end
  if type(v) ~= "number" or not (v >= 0) or v == huge then
    argerr(fname, arg,
      ("costs.%s must be a finite number >= 0 or false, got %s"):format(tostring(k), describe(v)), true)
  end
  return v
end

function M.costs(o, g, fname, arg, v)
  if type(v) ~= "table" then argerr(fname, arg, ("costs must be a table, got %s"):format(describe(v)), true) end
  for k, f in pairs(v) do
    if type(k) ~= "string" then
      argerr(fname, arg, ("costs keys must be tag names, got %s"):format(describe(k)), true)
    end
    factor(fname, arg, f, k)
  end
  local tagf, forbids = {}, false
  for t, name in ipairs(g.tagnames) do
    local f = v[name]
    if f == nil then tagf[t] = 1 else
      tagf[t] = factor(fname, arg, f, name)
      if tagf[t] == false then forbids = true end
    end
  end
  o.tagf, o.forbidtags = tagf, forbids
end

function M.cost(o, _, fname, arg, v)
  if not U.is_callable(v) then argerr(fname, arg, ("cost must be a function, got %s"):format(describe(v)), true) end
  o.costfn = v
end

local function field_option(g, fname, arg, v, name)
  local F = require("astar.pure.field")
  if getmetatable(v) ~= F.Field then
    argerr(fname, arg, ("%s must be an astar.Field, got %s"):format(name, describe(v)), true)
  end
  if v.closed then U.raise("attempt to use a closed field") end
  if v.w ~= g.w or v.h ~= g.h then
    argerr(fname, arg, ("%s field is %dx%d but the grid is %dx%d"):format(name, v.w, v.h, g.w, g.h), true)
  end
  return v
end

function M.penalty(o, g, fname, arg, v) o.penalty = field_option(g, fname, arg, v, "penalty") end
function M.forbid(o, g, fname, arg, v) o.forbid = field_option(g, fname, arg, v, "forbid") end

function M.penalty_scale(o, _, fname, arg, v)
  if type(v) ~= "number" or not U.isfinite(v) then
    argerr(fname, arg, ("penalty_scale must be a finite number, got %s"):format(describe(v)), true)
  end
  o.pscale = v
end

function M.max_expansions(o, _, fname, arg, v)
  if type(v) ~= "number" or not (v >= 1) or v ~= floor(v) or v > 2 ^ 53 then
    argerr(fname, arg, ("max_expansions must be an integer in 1..2^53, got %s"):format(describe(v)), true)
  end
  o.max_exp = v
end

function M.max_cost(o, _, fname, arg, v)
  if type(v) ~= "number" or not (v >= 0) then
    argerr(fname, arg, ("max_cost must be a number >= 0, got %s"):format(describe(v)), true)
  end
  o.max_cost = v
end

function M.size(o, _, fname, arg, v)
  if type(v) ~= "number" or not (v >= 1) or v ~= floor(v) or v > 255 then
    argerr(fname, arg, ("size must be an integer in 1..255, got %s"):format(describe(v)), true)
  end
  o.size = v
end

function M.trace(o, _, fname, arg, v) o.trace = flag(fname, arg, v, "trace") end
function M.visited(o, _, fname, arg, v) o.visited = flag(fname, arg, v, "visited") end
function M.partial(o, _, fname, arg, v) o.partial = flag(fname, arg, v, "partial") end
function M.smooth(o, _, fname, arg, v) o.smooth = flag(fname, arg, v, "smooth") end
function M.any_angle(o, _, fname, arg, v) o.any_angle = flag(fname, arg, v, "any_angle") end
function M.algorithm(o, _, fname, arg, v) o.algorithm = U.choice(fname, arg, v, "algorithm", ALGORITHMS, "", true) end
function M.direction(o, _, fname, arg, v)
  o.reverse = U.choice(fname, arg, v, "direction", DIRECTIONS, "", true) == 2
end
-- start_blocked: "fail" (the default: what a search from a blocked start
-- does anyway); "escape" needs the native module (queries refuse it there too)
local START_BLOCKED = { "fail", "escape" }
function M.start_blocked(_, _, fname, arg, v)
  local k = U.choice(fname, arg, v, "start_blocked", START_BLOCKED, "", true)
  if k == 2 then
    if fname == "query" then argerr(fname, arg, 'option "start_blocked" is only for find_path', true) end
    U.raise('option "start_blocked = escape" needs the native module (astar.core)')
  end
end

function M.on_change(o, _, fname, arg, v) o.on_change = U.choice(fname, arg, v, "on_change", ON_CHANGE, "", true) end

return M
