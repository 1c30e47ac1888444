-- bench/anyangle.lua -- what smoothing and any-angle paths cost beside the
-- plain grid search, on the shared Moving AI maps.
--
--   lua5.4 bench/anyangle.lua [pairs] [rounds]      (LUA_PATH/LUA_CPATH set)
--
-- For each map, `pairs` (default 20) start/goal pairs of scenario rows
-- (every k-th row, so long and short ones), then `rounds` (default 3)
-- rounds; in each round every pair runs the octile search, the same with
-- smooth = true, and any_angle = true, alternating, timed by CPU time
-- (os.clock).  Prints per map the median milliseconds per path of each and
-- the median of the per-round ratios to octile, and how much shorter the
-- any-angle paths are (sum of costs).
local maps = require("astar.maps")

local MAPS = os.getenv("MAPS") or "../shared/maps"
local PAIRS = tonumber(arg[1] or "20")
local ROUNDS = tonumber(arg[2] or "3")
local LIST = { "Berlin_0_256", "AR0011SR", "8room_000" }

local function median(t)
  table.sort(t)
  local n = #t
  return n % 2 == 1 and t[(n + 1) / 2] or (t[n / 2] + t[n / 2 + 1]) / 2
end

local function time(fn)
  local t0 = os.clock()
  fn()
  return os.clock() - t0
end

print(("%-14s %9s %9s %9s %8s %8s %9s"):format("map", "octile ms", "smooth ms", "any ms",
  "smooth/o", "any/o", "shorter"))
for _, name in ipairs(LIST) do
  local g = maps.load(MAPS .. "/" .. name .. ".map")
  local rows = maps.scenarios(MAPS .. "/" .. name .. ".map.scen")
  local list = {}
  local step = math.max(1, math.floor(#rows / PAIRS))
  for i = step, #rows, step do
    if #list < PAIRS then list[#list + 1] = rows[i] end
  end
  local t = { o = {}, s = {}, a = {} }
  local ratio_s, ratio_a = {}, {}
  local plain, any = 0, 0
  for round = 1, ROUNDS do
    local so, ss, sa = 0, 0, 0
    for _, r in ipairs(list) do
      local sx, sy, gx, gy = r.start[1], r.start[2], r.goal[1], r.goal[2]
      so = so + time(function()
        local p = assert(g:find_path(sx, sy, gx, gy))
        if round == 1 then plain = plain + p.cost end
      end)
      ss = ss + time(function() assert(g:find_path(sx, sy, gx, gy, { smooth = true })) end)
      sa = sa + time(function()
        local p = assert(g:find_path(sx, sy, gx, gy, { any_angle = true }))
        if round == 1 then any = any + p.cost end
      end)
    end
    t.o[#t.o + 1], t.s[#t.s + 1], t.a[#t.a + 1] = so, ss, sa
    ratio_s[#ratio_s + 1], ratio_a[#ratio_a + 1] = ss / so, sa / so
  end
  local n = #list
  print(("%-14s %9.2f %9.2f %9.2f %8.2f %8.1f %8.2f%%"):format(name, median(t.o) / n * 1e3,
    median(t.s) / n * 1e3, median(t.a) / n * 1e3, median(ratio_s), median(ratio_a),
    (1 - any / plain) * 100))
end
