--- astar.describe (internal): a value as the C functions name it in error
-- messages, so Lua-side checks read the same: numbers by value ("nan",
-- "inf", "-1", "0.5"), strings quoted, booleans and nil by name, userdata by
-- their __name ("astar.Grid"), anything else by type name.
return function(v)
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
  elseif t == "userdata" then
    local mt = getmetatable(v)
    if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
  end
  return t
end
