-- Shared by the specs: error messages without the "file:line: " prefix that
-- Lua adds for the caller's position, so specs can compare them exactly.
local helpers = {}

--- Calls fn(...) and returns its error message with the position stripped;
-- fails the spec if fn does not raise.
function helpers.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "expected an error, got none")
  if type(err) == "string" then err = err:gsub("^[^\n]-:%d+: ", "", 1) end
  return err
end

return helpers
