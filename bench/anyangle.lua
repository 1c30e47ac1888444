-- bench/anyangle.lua -- what any-angle paths cost beside the plain grid
-- search, and how long they are beside the any-angle optimum, on the shared
-- 512 x 512 Moving AI maps.
--
--   lua5.4 bench/anyangle.lua [pairs] [rounds]      (LUA_PATH/LUA_CPATH set)
--
-- For each map, `pairs` (default 20) start/goal pairs of scenario rows
-- (every k-th row, so long and short ones), then `rounds` (default 3)
-- rounds.  In each round every pair runs the grid's default search (jump
-- point search on these maps), algorithm = "astar" and any_angle = true,
-- one after the other, timed by CPU time (os.clock); and, alternating with
-- this process's round, a child process with v0.2.0's module (BASE, default
-- /tmp/base/build; skipped when its core.so is missing) times its default
-- search and any_angle = true (Theta*) on the same pairs.  Printed per map:
-- the median ms per path of the default search and of any_angle, the
-- medians of the per-round ratios any/default and any/astar, v0.2.0's
-- any/default and (v0.2.0 any) / (this any); then the length of the
-- any-angle paths against the optimum through cell centres under the map's
-- corner rule (build/bench/vis_oracle, on the pairs whose any-angle path
-- is at most ORACLE_MAX long, default 256: the oracle is quadratic in the
-- cells of the ellipse round a path, seconds a path at that length): mean
-- and worst ratio and how many pairs, for this build and for v0.2.0's
-- Theta* on the same pairs.
local maps = require("astar.maps")

local MAPS = os.getenv("MAPS") or "../shared/maps"
local BASE = os.getenv("BASE") or "/tmp/base/build"
local ORACLE = os.getenv("ORACLE") or "build/bench/vis_oracle"
local LUA = os.getenv("LUA") or "lua5.4"
local ORACLE_MAX = tonumber(os.getenv("ORACLE_MAX") or "256")
local LIST = { "8room_000", "AR0011SR", "Boston_0_512", "CatwalkAlley", "maze512-1-0",
  "random512-10-0", "random512-20-0" }

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median

local function pick(name, npairs)
  local rows = maps.scenarios(MAPS .. "/" .. name .. ".map.scen")
  local list = {}
  local step = math.max(1, math.floor(#rows / npairs))
  for i = step, #rows, step do
    if #list < npairs then list[#list + 1] = rows[i] end
  end
  return list
end

-- One round: the summed CPU seconds of each mode over the pairs, and the
-- any-angle lengths.
local function round(g, list, modes)
  local sum, len = {}, {}
  for _, m in ipairs(modes) do sum[m[1]] = 0 end
  for i, r in ipairs(list) do
    local sx, sy, gx, gy = r.start[1], r.start[2], r.goal[1], r.goal[2]
    for _, m in ipairs(modes) do
      local t0 = os.clock()
      local p = g:find_path(sx, sy, gx, gy, m[2])
      sum[m[1]] = sum[m[1]] + (os.clock() - t0)
      assert(p, "no path")
      if m[1] == "any" then len[i] = p.length end
    end
  end
  return sum, len
end

-- The child: `--worker map pairs` prints one round of the default search
-- and any_angle, then the any-angle lengths.
if arg[1] == "--worker" then
  local g = maps.load(MAPS .. "/" .. arg[2] .. ".map")
  local sum, len = round(g, pick(arg[2], tonumber(arg[3])),
    { { "default", nil }, { "any", { any_angle = true } } })
  print(("default=%.17g any=%.17g"):format(sum.default, sum.any))
  for _, v in ipairs(len) do print(("len=%.17g"):format(v)) end
  os.exit(0)
end

local PAIRS = tonumber(arg[1] or "20")
local ROUNDS = tonumber(arg[2] or "3")
local base_ok = io.open(BASE .. "/astar/core.so") ~= nil
local oracle_ok = io.open(ORACLE) ~= nil

local function base_round(name)
  local cmd = ("LUA_PATH='%s/../lua/?.lua;%s/../lua/?/init.lua;;' LUA_CPATH='%s/?.so;;' %s %s --worker %s %d")
    :format(BASE, BASE, BASE, LUA, arg[0], name, PAIRS)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local d, a = out:match("default=(%S+) any=(%S+)")
  if not d then error("v0.2.0 worker failed: " .. cmd .. "\n" .. out) end
  local len = {}
  for v in out:gmatch("len=(%S+)") do len[#len + 1] = tonumber(v) end
  return tonumber(d), tonumber(a), len
end

-- The optimum of every pair (nil when the oracle is missing).
local function optimum(name, rule, list, len)
  if not oracle_ok then return nil end
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  local asked = {}
  for i, r in ipairs(list) do
    if len[i] <= ORACLE_MAX then
      f:write(("%d %d %d %d %.17g\n"):format(r.start[1], r.start[2], r.goal[1], r.goal[2], len[i]))
      asked[#asked + 1] = i
    end
  end
  f:close()
  local p = assert(io.popen(("%s %s/%s.map %s < %s"):format(ORACLE, MAPS, name, rule, tmp)))
  local out, k = {}, 0
  for line in p:lines() do
    k = k + 1
    out[asked[k]] = tonumber(line) or false
  end
  p:close()
  os.remove(tmp)
  return out
end

local function ratios(len, opt)
  local sum, worst, n, missed = 0, 0, 0, 0
  for i, v in ipairs(len) do
    if opt[i] == false then
      missed = missed + 1 -- shorter than the oracle's restriction found
    elseif opt[i] then
      local q = opt[i] > 0 and v / opt[i] or 1
      sum, n = sum + q, n + 1
      if q > worst then worst = q end
    end
  end
  return n > 0 and sum / n or 0 / 0, worst, missed, n
end

print(("any_angle on the 512 x 512 maps: %d pairs a map, %d rounds, CPU time, medians; "
  .. "v0.2.0 from %s%s"):format(PAIRS, ROUNDS, BASE, base_ok and "" or " (missing: skipped)"))
print(("%-15s %7s %7s %7s %8s %8s %8s %8s  %-22s %-17s"):format("map", "def ms", "A* ms", "any ms",
  "any/def", "any/A*", "v0.2 a/d", "v0.2/now", "length: mean/worst", "v0.2.0 mean/worst"))
for _, name in ipairs(LIST) do
  local g = maps.load(MAPS .. "/" .. name .. ".map")
  local list = pick(name, PAIRS)
  local modes = { { "default", nil }, { "astar", { algorithm = "astar" } },
    { "any", { any_angle = true } } }
  local t = { default = {}, astar = {}, any = {} }
  local r_def, r_astar, b_def, b_now = {}, {}, {}, {}
  local len, blen
  for k = 1, ROUNDS do
    local sum, bd, ba, bl
    if base_ok and k % 2 == 0 then bd, ba, bl = base_round(name) end
    sum, len = round(g, list, modes)
    if base_ok and k % 2 == 1 then bd, ba, bl = base_round(name) end
    for m, v in pairs(sum) do table.insert(t[m], v) end
    r_def[#r_def + 1] = sum.any / sum.default
    r_astar[#r_astar + 1] = sum.any / sum.astar
    if base_ok then
      b_def[#b_def + 1] = ba / bd
      b_now[#b_now + 1] = ba / sum.any
      blen = bl
    end
  end
  local opt = optimum(name, g:diagonal(), list, len)
  local q = "(no oracle)"
  local bq = "-"
  if opt then
    local mean, worst, missed, n = ratios(len, opt)
    q = ("%.4f/%.4f n=%d"):format(mean, worst, n) .. (missed > 0 and (" (%d beat)"):format(missed) or "")
    if blen then
      -- the oracle's bound is this build's length; a v0.2.0 path is
      -- measured against the same optimum
      local bm, bw = ratios(blen, opt)
      bq = ("%.4f/%.4f"):format(bm, bw)
    end
  end
  local n = #list
  print(("%-15s %7.3f %7.3f %7.3f %8.2f %8.2f %8s %8s  %-22s %-17s"):format(name,
    median(t.default) / n * 1e3, median(t.astar) / n * 1e3, median(t.any) / n * 1e3,
    median(r_def), median(r_astar), base_ok and ("%.2f"):format(median(b_def)) or "-",
    base_ok and ("%.1f"):format(median(b_now)) or "-", q, bq))
end
