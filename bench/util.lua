-- bench/util.lua -- helpers the benches share.  A bench loads it from its
-- own directory, whatever the current one:
--
--   local util = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua")

local util = {}

-- The median of a list of numbers; the list is left as it was.
function util.median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  return n % 2 == 1 and c[(n + 1) / 2] or (c[n / 2] + c[n / 2 + 1]) / 2
end

return util
