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

--- rng(seed) -> r: Park-Miller's minimal standard generator, exact in both
-- doubles and integers, so a seed gives the same worlds on every Lua.  r()
-- is in [0, 1); r(lo, hi) an integer in lo..hi.
function helpers.rng(seed)
  local state = seed % 2147483646 + 1
  for _ = 1, 4 do state = (state * 16807) % 2147483647 end -- spread small seeds
  return function(lo, hi)
    state = (state * 16807) % 2147483647
    local r = (state - 1) / 2147483646
    if lo then return lo + math.floor(r * (hi - lo + 1)) end
    return r
  end
end

--- close(a, b): equal within 1e-9 relative (absolute below 1).
function helpers.close(a, b)
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a), math.abs(b))
end

return helpers
