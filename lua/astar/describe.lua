--- astar.describe (internal): values and types as the C functions name them
-- in error messages, so Lua-side checks read the same.
--   value(v): numbers by value ("nan", "inf", "-1", "0.5"), strings quoted
--             (cut after 37 characters), booleans and nil by name, anything
--             else as type(v)
--   type(v):  type(v), but our userdata by their __name ("astar.Grid")
local M = {}

function M.type(v)
  if type(v) == "userdata" then
    local mt = getmetatable(v)
    if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
  end
  return type(v)
end

function M.value(v)
  local t = type(v)
  if t == "number" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return ("%.14g"):format(v)
  elseif t == "string" then
    if #v > 40 then return '"' .. v:sub(1, 37) .. '..."' end
    return '"' .. v .. '"'
  elseif t == "boolean" or t == "nil" then
    return tostring(v)
  end
  return M.type(v)
end

return M
