-- Shared by the hostile specs (spec/hostile/*_spec.lua): every kind of wrong
-- value, the fixtures the cases run on with their snapshots (a refused call
-- must change nothing) and health checks (a normal query still works), and
-- a way to run code in a child process.
--
-- Portable across Lua 5.1, LuaJIT, 5.3 and 5.4: no integer operators, no
-- goto, `<close>` only in a chunk loaded on 5.4.
local astar = require("astar")
local assert = require("luassert") -- a module has no busted environment
local error_of = require("helpers").error_of

local unpack = table.unpack or unpack

-- The error message of fn(...) (position stripped), or "no error" when it
-- returns: for calls that must raise, where returning would be the bug.
local function outcome(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return "no error" end
  if type(err) == "string" then err = err:gsub("^[^\n]-:%d+: ", "", 1) end
  return err
end
local loadstr = loadstring or load
local D = astar.DIAGONAL

local NONE = setmetatable({}, { __tostring = function() return "none" end })
local NEG_ZERO = -1 / math.huge
local NAN = 0 / 0
local HUGE = math.huge

local YIELD_MSG = jit and "attempt to yield across C-call boundary"
  or _VERSION == "Lua 5.1" and "attempt to yield across metamethod/C-call boundary"
  or "attempt to yield across a C-call boundary"

-- userdata of every type this module makes (never closed)
local U_GRID = astar.grid(2, 2)
local U_GRAPH = astar.graph()
local U_FIELD = astar.field(astar.grid(2, 2))

-- Every kind of wrong (or awkward) value.  t: the type name an error names
-- ("no value" for an absent argument), d: how the binding describes it.
local VALUES = {
  { label = "none", v = NONE, t = "no value", d = "no value" },
  { label = "nil", v = nil, t = "nil", d = "nil" },
  { label = "a numeric string", v = "1", t = "string", d = '"1"' },
  { label = "a string", v = "abc", t = "string", d = '"abc"' },
  { label = "the empty string", v = "", t = "string", d = '""' },
  { label = "a table", v = {}, t = "table", d = "table" },
  { label = "a function", v = print, t = "function", d = "function" },
  { label = "true", v = true, t = "boolean", d = "true" },
  { label = "false", v = false, t = "boolean", d = "false" },
  { label = "a Grid", v = U_GRID, t = "userdata", d = "astar.Grid", ud = true },
  { label = "a Graph", v = U_GRAPH, t = "userdata", d = "astar.Graph", ud = true },
  { label = "a Field", v = U_FIELD, t = "userdata", d = "astar.Field", ud = true },
  { label = "1.5", v = 1.5, t = "number", d = "1.5" },
  { label = "0.5", v = 0.5, t = "number", d = "0.5" },
  { label = "-0.0", v = NEG_ZERO, t = "number", d = "-0" },
  { label = "0", v = 0, t = "number", d = "0" },
  { label = "-1", v = -1, t = "number", d = "-1" },
  { label = "2^31", v = 2 ^ 31, t = "number", d = "2147483648" },
  { label = "2^53", v = 2 ^ 53, t = "number", d = "9007199254740992" },
  { label = "-2^63", v = -2 ^ 63, t = "number", d = "-9.2233720368548e+18" },
  { label = "math.huge", v = HUGE, t = "number", d = "inf" },
  { label = "-math.huge", v = -HUGE, t = "number", d = "-inf" },
  { label = "0/0", v = NAN, t = "number", d = "nan" },
}

local function absent(e) return e.v == NONE or e.v == nil end
local function is_num(e) return e.v ~= NONE and type(e.v) == "number" end
local function finite(v) return v == v and v ~= HUGE and v ~= -HUGE end
local function is_int(v) return finite(v) and v == math.floor(v) end

-- Method callers: o:name(...) with a colon, so the binding numbers the
-- arguments after self (as Lua's own libraries do).
local callers = {}
local function caller(name)
  if not callers[name] then
    assert(name:match("^[%a_][%w_]*$"), name)
    callers[name] = assert(loadstr("return function(o, ...) local r = { o:" .. name .. "(...) } return r end"))()
  end
  return callers[name]
end

-- Fixtures, their snapshots (a refused call must change nothing) and their
-- health checks (a normal query still works).
local GW, GH = 5, 4 -- the grid fixture
local FW, FH = 7, 3 -- the field fixture's grid

local function new_graph()
  local g = astar.graph()
  g:add_node(0, 0); g:add_node(3, 4); g:add_node(6, 8)
  g:add_edge(1, 2, 5, "door")
  g:add_edge(2, 3, 5)
  return g
end

local graph_snapshot = require("worlds").graph_snapshot

local function graph_ok(g)
  local a, b = g:add_node(50, 50), g:add_node(51, 50)
  g:add_edge(a, b, 1, "door")
  local p = assert(g:find_path(a, b, { trace = true, visited = true }))
  assert.equal(1, p.cost)
  assert.same({ a, b }, p.nodes)
end

local function new_grid() return astar.grid(GW, GH) end

local grid_snapshot = require("worlds").grid_snapshot

local function grid_ok(g)
  local w, h = g:size()
  g:set_blocked(w, h, false)
  g:set_blocked(1, 1, false)
  local p = assert(g:find_path(1, 1, w, h, { trace = true, visited = true }))
  assert.is_true(p.cost > 0 and finite(p.cost))
  assert.same({ w, h }, p.xy[#p.xy])
end

-- the hex grid fixture: the grid's size, its own snapshot and health check
local function new_hex() return astar.hex(GW, GH, { layout = "even_q" }) end

local function hex_snapshot(g)
  local t = { g:to_string(), g:layout() }
  local w, h = g:size()
  for y = 1, h do
    for x = 1, w do
      t[#t + 1] = ("%s:%.17g:%s"):format(tostring(g:is_blocked(x, y)), g:get_cost(x, y),
        tostring(g:get_tag(x, y)))
    end
  end
  return table.concat(t, " ")
end

local function hex_ok(g)
  local w, h = g:size()
  g:set_blocked(w, h, false)
  g:set_blocked(1, 1, false)
  local p = assert(g:find_path(1, 1, w, h, { trace = true, visited = true }))
  assert.is_true(p.cost > 0 and finite(p.cost))
  assert.same({ w, h }, p.xy[#p.xy])
  assert.is_true(g:line_of_sight(1, 1, 1, 1))
end

local function new_field() return astar.field(astar.grid(FW, FH)) end
local function new_dfield() return astar.grid(FW, FH):distances({ { FW, FH } }) end

local function field_snapshot(f)
  local w, h = f:size()
  local t = {}
  for y = 1, h do
    for x = 1, w do t[#t + 1] = tostring(f:get(x, y)) end
  end
  return table.concat(t, " ")
end

local function field_ok(f)
  local w, h = f:size()
  f:fill(0)
  f:set(2, 1, 0.5)
  assert.equal(0.5, f:get(2, 1))
  local g = astar.grid(w, h, { diagonal = "never" })
  local p = assert(g:find_path(1, 1, 3, 1, { penalty = f }))
  assert.equal(2.5, p.cost)
end

local function module_ok()
  local p = assert(astar.grid(3, 3):find_path(1, 1, 3, 3))
  assert.equal(2 * D, p.cost)
end

local function sorted_keys(t)
  local r = {}
  for k in pairs(t) do r[#r + 1] = k end
  table.sort(r)
  return r
end

-- The heuristic choices as the binding words them (doc/reference.md: "zero" ..
-- "full_bisector" or a function; a newer binding may add registered names):
-- learnt once, then every heuristic error must use the same words.
local H_MUST = assert(error_of(function() return new_graph():find_path(1, 3, { heuristic = 3 }) end)
  :match("^bad argument #3 to 'find_path' %((heuristic must be .-), got 3%)$"))
assert(H_MUST:find('"zero", "euclidean", "manhattan", "octile", "chebyshev", "bisector" or "full_bisector"', 1, true))

-- How the option specs print a key or a value in a case name.
local function label_of(v)
  if type(v) == "string" then return '"' .. v .. '"' end
  if type(v) == "userdata" then return tostring(getmetatable(v).__name) end
  if type(v) == "table" or type(v) == "function" then return type(v) end
  return tostring(v)
end

-- graph: 1 -> 2 -> 3 (cost 1 each) and a shortcut 1 -> 3 (cost 5, "shortcut")
local chain = require("worlds").chain

local function chain_ok(g)
  assert.equal(2, g:find_path(1, 3).cost)
  local n = g:add_node(9, 9)
  g:add_edge(3, n, 1)
  g:set_cost(1, 1)
  assert.equal(n, g:node_count())
end

-- grid: a 3x1 corridor, so the first callback calls are known
local function corridor() return astar.grid(3, 1) end

local function corridor_ok(g)
  assert.equal(2, g:find_path(1, 1, 3, 1).cost)
  g:set_blocked(2, 1, true)
  assert.is_nil(g:find_path(1, 1, 3, 1))
  g:set_blocked(2, 1, false)
  g:set_cost(3, 1, 1)
  g:set_tag(3, 1, nil)
end

-- A new temporary file holding `text`; returns its name.
local function tmpfile(text)
  local name = os.tmpname()
  local f = assert(io.open(name, "wb"))
  f:write(text)
  f:close()
  return name
end

-- Runs `code` in a fresh interpreter (the one running this spec) with this
-- package.path and package.cpath; returns its exit status (true on success)
-- and output.  For cases that could crash the process.
local function isolated(code)
  local interp = arg and arg[-1]
  if not interp or not io.popen then return nil, "no interpreter to run" end
  local script = ("package.path = %q; package.cpath = %q\n%s\nio.write('done')")
    :format(package.path, package.cpath, code)
  local file = tmpfile(script)
  local p = io.popen(("%s %s 2>&1; echo \" rc=$?\""):format(interp, file))
  local out = p:read("*a")
  p:close()
  os.remove(file)
  return out:match("done rc=0%s*$") ~= nil, out
end

return {
  unpack = unpack, outcome = outcome, caller = caller,
  NONE = NONE, NEG_ZERO = NEG_ZERO, NAN = NAN, HUGE = HUGE, YIELD_MSG = YIELD_MSG,
  U_GRID = U_GRID, U_GRAPH = U_GRAPH, U_FIELD = U_FIELD, VALUES = VALUES,
  absent = absent, is_num = is_num, finite = finite, is_int = is_int,
  GW = GW, GH = GH, FW = FW, FH = FH,
  new_graph = new_graph, graph_snapshot = graph_snapshot, graph_ok = graph_ok,
  new_grid = new_grid, grid_snapshot = grid_snapshot, grid_ok = grid_ok,
  new_hex = new_hex, hex_snapshot = hex_snapshot, hex_ok = hex_ok,
  new_field = new_field, new_dfield = new_dfield, field_snapshot = field_snapshot, field_ok = field_ok,
  module_ok = module_ok,
  chain = chain, chain_ok = chain_ok, corridor = corridor, corridor_ok = corridor_ok,
  sorted_keys = sorted_keys, H_MUST = H_MUST, label_of = label_of,
  tmpfile = tmpfile, isolated = isolated,
}
