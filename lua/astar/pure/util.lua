--- astar.pure.util (internal): errors worded as the native module words
-- them, and the checks every pure-Lua function shares.
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local describe_mod = require("astar.describe")

-- the pure backend's objects are tables: named by their class as the native
-- module names its userdata ("astar.Grid")
local function dtype(v)
  if type(v) == "table" then
    local mt = getmetatable(v)
    local name = type(mt) == "table" and rawget(mt, "__name")
    if type(name) == "string" and name:find("^astar%.") then return name end
  end
  return describe_mod.type(v)
end
local function describe(v)
  if type(v) == "table" then return dtype(v) end
  return describe_mod.value(v)
end

local M = { describe = describe, dtype = dtype }

local floor, huge = math.floor, math.huge
local getinfo = debug and debug.getinfo

-- The stack level of the first function outside the pure backend (the
-- caller's code), counted from the function that calls `level`'s caller.
local function outside(extra)
  if not getinfo then return 0 end
  local l = 3 + extra
  while true do
    local info = getinfo(l, "S")
    if not info then return 0 end
    local src = info.source
    if not (src:find("astar[/\\]pure[/\\]") or src:find("[/\\@]astar%.lua$")) then return l - 1 - extra end
    l = l + 1
  end
end

--- raise(msg): error(msg) reported at the caller's line, as luaL_error does.
function M.raise(msg)
  error(msg, outside(0))
end

--- argerr(fname, arg, msg, method): "bad argument #arg to 'fname' (msg)";
-- for methods (arg counts self) one less when called with a colon, as
-- luaL_argerror counts.
function M.argerr(fname, arg, msg, method)
  local lvl = outside(0)
  if method and arg > 1 and getinfo then
    -- the frame below the caller's: the pure function it called
    local info = lvl > 1 and getinfo(lvl - 1, "n")
    local colon = true
    if info and info.name ~= nil then colon = info.namewhat == "method" end
    if colon then arg = arg - 1 end
  elseif method and arg > 1 then
    arg = arg - 1
  end
  error(("bad argument #%d to '%s' (%s)"):format(arg, fname, msg), lvl)
end

--- nargs: the number of arguments the running public function was given
-- (set by the wrappers of astar.pure.core), for "got no value"
M.nargs = nil

function M.type_error(fname, arg, what, v, method, absent)
  local got = (absent or (v == nil and M.nargs and arg > M.nargs)) and "no value" or dtype(v)
  M.argerr(fname, arg, ("%s expected, got %s"):format(what, got), method)
end

function M.pass(...) return ... end

--- describe_arg(v, arg): as describe, "no value" for an argument not given
function M.describe_arg(v, arg)
  if v == nil and M.nargs and arg > M.nargs then return "no value" end
  return describe(v)
end

--- wrap(t): every function of t (but metamethods) records its argument count
function M.wrap(t)
  for name, f in pairs(t) do
    if type(f) == "function" and name:sub(1, 2) ~= "__" then
      -- not a tail call: the caller's frame says whether it used a colon
      t[name] = function(...)
        M.nargs = select("#", ...)
        return M.pass(f(...))
      end
    end
  end
end

function M.is_callable(v)
  if type(v) == "function" then return true end
  local mt = describe_mod.getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

--- choice(fname, arg, v, opt, names, also, method) -> index of v in names
function M.choice(fname, arg, v, opt, names, also, method)
  if type(v) == "string" then
    for i = 1, #names do if names[i] == v then return i end end
  end
  local parts = {}
  for i = 1, #names do
    local sep = i == 1 and "" or (i == #names and " or " or ", ")
    parts[#parts + 1] = sep .. '"' .. names[i] .. '"'
  end
  M.argerr(fname, arg, ("%s must be %s%s, got %s"):format(opt, also or "", table.concat(parts), describe(v)), method)
end

function M.isfinite(v) return v == v and v ~= huge and v ~= -huge end

--- number(fname, arg, v, method): a number, no string coercion
function M.number(fname, arg, v, method, n)
  if type(v) ~= "number" then M.type_error(fname, arg, "number", v, method, n and arg > n) end
  return v
end

--- range(fname, arg, v, name, lo, hi, method, nargs)
function M.range(fname, arg, v, name, lo, hi, method, nargs)
  if type(v) ~= "number" then M.type_error(fname, arg, "number", v, method, nargs and arg > nargs) end
  if v ~= floor(v) or v < lo or v > hi then
    M.argerr(fname, arg, ("%s must be an integer in %d..%d, got %s"):format(name, lo, hi, describe(v)), method)
  end
  return v
end

--- cost(fname, arg, v, name, method): a finite number >= 0
function M.cost(fname, arg, v, name, method, nargs)
  if type(v) ~= "number" then M.type_error(fname, arg, "number", v, method, nargs and arg > nargs) end
  if not (v >= 0) or v == huge then
    M.argerr(fname, arg, ("%s must be a finite number >= 0, got %s"):format(name, describe(v)), method)
  end
  return v
end

function M.finite(fname, arg, v, name, method, nargs)
  if type(v) ~= "number" then M.type_error(fname, arg, "number", v, method, nargs and arg > nargs) end
  if not M.isfinite(v) then
    M.argerr(fname, arg, ("%s must be a finite number, got %s"):format(name, describe(v)), method)
  end
  return v
end

-- Flat arrays for the search's hot data.  Under LuaJIT with its compiler on,
-- FFI arrays (zero-filled, typed: no type or bounds checks in compiled
-- code, and a flag takes 1 byte where a table slot takes 8); else Lua
-- tables, filled with zeros (false for bool).  FFI arrays are indexed
-- from 0; the search uses 1..n.  A host without the ffi library (a
-- sandbox) or with the compiler off (where FFI accesses run slower than
-- tables) gets tables.
local ffi
do
  local jit_on = rawget(_G, "jit") and jit.status and jit.status()
  if jit_on then
    local ok, lib = pcall(require, "ffi")
    if ok then ffi = lib end
  end
end
M.ffi = ffi ~= nil
local CT = {}
local function array(ctype, n, zero)
  if ffi then
    local ct = CT[ctype]
    if not ct then
      ct = ffi.typeof(ctype .. "[?]")
      CT[ctype] = ct
    end
    return ct(n + 1)
  end
  local t = {}
  for i = 1, n do t[i] = zero end
  return t
end
--- int_array(n [, small]): integers (int32 under FFI; int16 when small:
-- every value within +-32767), 1..n, zeros
function M.int_array(n, small) return array(small and "int16_t" or "int32_t", n, 0) end
--- num_array(n): numbers (double under FFI), 1..n, zeros
function M.num_array(n) return array("double", n, 0) end
--- bool_array(n): booleans, 1..n, false
function M.bool_array(n) return array("bool", n, false) end

--- the error of a function the pure-Lua backend does not have
function M.needs_native(name)
  return function()
    M.raise(("%s needs the native module (astar.core), which is not loaded: "
      .. "the pure-Lua backend serves square grids only"):format(name))
  end
end

return M
