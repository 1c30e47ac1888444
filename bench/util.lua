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

-- The grouped median of times in whole clock steps (os.clock counts whole
-- microseconds here, so a plain median moves only by whole steps): each
-- time k stands for [k - 0.5, k + 0.5), and the median is placed within its
-- step by the share of the values below it.  A list whose values are not
-- all whole takes the plain median; an empty one, NaN.
function util.grouped_median(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = v end
  table.sort(s)
  local n = #s
  if n == 0 then return 0 / 0 end
  local m, below, at = s[math.floor((n + 1) / 2)], 0, 0
  for _, v in ipairs(s) do
    if v ~= math.floor(v) then return util.median(s) end
    if v < m then below = below + 1 elseif v == m then at = at + 1 end
  end
  return m - 0.5 + (n / 2 - below) / at
end

-- The queries of one family of bench/plan.lua's rows, { grid, scenario row }
-- each: every stride-th row of each of the family's maps, loaded with astar
-- from the directory maps.
function util.family_queries(astar, rows, family, maps)
  local queries = {}
  for _, row in ipairs(rows) do
    if row[1] == family then
      local g = astar.maps.load(maps .. "/" .. row[2] .. ".map")
      local scen = astar.maps.scenarios(maps .. "/" .. row[2] .. ".map.scen")
      for i = 1, #scen, row[3] do queries[#queries + 1] = { g, scen[i] } end
    end
  end
  return queries
end

return util
