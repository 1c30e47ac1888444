--- astar.describe (internal): values and types as the C functions name them
-- in error messages, so Lua-side checks read the same.
--   value(v): numbers by value (see below), strings quoted (cut after 37
--             characters), booleans and nil by name, anything else as
--             type(v)
--   type(v):  type(v), but our userdata by their __name ("astar.Grid")
--   getmetatable(v): v's real metatable (debug.getmetatable when loaded)
-- Lua 5.1 to 5.5 and LuaJIT.
local M = {}

local floor, huge = math.floor, math.huge
-- Lua 5.3+ tells integers from floats; 5.1 and LuaJIT have floats only.
local math_type = math.type
local TWO63 = 2 ^ 63
-- The real metatable, as lua_getmetatable sees it (a __metatable field does
-- not hide it); plain getmetatable where the debug library is not loaded.
local raw_getmetatable = debug and debug.getmetatable or getmetatable
M.getmetatable = raw_getmetatable

function M.type(v)
  if type(v) == "userdata" then
    -- raw, as luaL_getmetafield reads it: a __metatable field or a
    -- metatable with its own __index cannot run code here
    local mt = raw_getmetatable(v)
    if type(mt) == "table" then
      local name = rawget(mt, "__name")
      if type(name) == "string" then return name end
    end
  end
  return type(v)
end

-- Numbers, as the C binding prints them:
--   an integer (Lua 5.3+ subtype) exactly: 9223372036854775807;
--   an integral float below 2^63 in magnitude without exponent or
--   decimals: 2^63 - 1024 -> 9223372036854774784, 1e15 -> 1000000000000000;
--   any other float with %.14g: 0.5, -1.5, 1e+300, -9.2233720368548e+18;
--   nan, inf, -inf by name (printf's "-nan" for 0/0 on glibc is not used).
local function number(v)
  if v ~= v then return "nan" end
  if v == huge then return "inf" end
  if v == -huge then return "-inf" end
  if math_type and math_type(v) == "integer" then return ("%d"):format(v) end
  if v == floor(v) and v < TWO63 and v > -TWO63 then return ("%.0f"):format(v) end
  return ("%.14g"):format(v)
end

function M.value(v)
  local t = type(v)
  if t == "number" then
    return number(v)
  elseif t == "string" then
    if #v > 40 then return '"' .. v:sub(1, 37) .. '..."' end
    return '"' .. v .. '"'
  elseif t == "boolean" or t == "nil" then
    return tostring(v)
  end
  return M.type(v)
end

return M
