-- bench/run.lua -- the benchmark table (`make bench`).
--
-- For each map family of ../shared/maps it runs the same scenarios through
--   module    this module, built-in octile heuristic (bench/module_bench.lua),
--             default algorithm (jump point search on these uniform maps)
--   astar     the same with algorithm = "astar", run right after or right
--             before module (alternating between runs)
--   lua_h     this module with the octile heuristic written in Lua
--   pure_lua  the best A* we could write in pure Lua (bench/lua_astar.lua)
--   boost     Boost.Graph astar_search, C++ (bench/boost_astar.cpp), when built
-- each in its own process (clean peak RSS, no GC interference), every
-- answer checked against the .scen optimum, RUNS times; every figure in the
-- table is the median over the runs, and every ratio is taken within one run
-- (this machine is shared and noisy: absolute times drift, ratios less so).
-- Ratios compare total time over the same scenarios: expansion counts differ
-- between engines (Boost's queue cannot break ties on g), so time per query,
-- not expansions per second, is the fair comparison.
--
--   lua5.4 bench/run.lua [runs] [quick]
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"
local RUNS = tonumber(arg[1] or "3")
local QUICK = arg[2] == "quick"

-- family, map, stride (rows used: every stride-th, all buckets covered)
local PLAN = dofile("bench/plan.lua")
local plan, families = PLAN.rows, PLAN.families

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

if not exists(MAPS .. "/README.md") then
  print(("bench: %s is absent: no Moving AI maps, nothing to measure"):format(MAPS))
  os.exit(0)
end
local have_boost = exists("build/bench/boost_astar")

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>/dev/null"))
  local out = p:read("*a")
  local ok = p:close()
  local r = {}
  for k, v in out:gmatch("([%w_]+)=(%S+)") do r[k] = tonumber(v) or v end
  if not ok or not r.seconds then error("benchmark command failed: " .. cmd .. "\n" .. out) end
  if r.mismatches ~= 0 then error("wrong answers from: " .. cmd) end
  return r
end

local env = "LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' "
-- The engines of one map, in the order run r runs them: module and astar
-- side by side, which of them first alternating with r.
local function engines(map, stride, r)
  local m, s = MAPS .. "/" .. map .. ".map", MAPS .. "/" .. map .. ".map.scen"
  local module = ("%s%s bench/module_bench.lua %s %s %d"):format(env, LUA, m, s, stride)
  local pair = { { "module", module }, { "astar", module .. " algorithm=astar" } }
  if r % 2 == 0 then pair[1], pair[2] = pair[2], pair[1] end
  local cmds = {
    pair[1], pair[2],
    { "lua_h", ("%s%s bench/module_bench.lua %s %s %d lua-heuristic"):format(env, LUA, m, s, stride) },
    { "pure_lua", ("%s bench/lua_astar.lua %s %s %d"):format(LUA, m, s, stride) },
  }
  if have_boost then cmds[#cmds + 1] = { "boost", ("build/bench/boost_astar %s %s %d"):format(m, s, stride) } end
  return cmds
end

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  if n == 0 then return 0 / 0 end
  if n % 2 == 1 then return c[(n + 1) // 2] end
  return (c[n // 2] + c[n // 2 + 1]) / 2
end

-- results[family][run] = { seconds per engine, module expansions, times }
local results, mem = {}, {}
for _, f in ipairs(families) do
  results[f] = {}
  for r = 1, RUNS do results[f][r] = { sec = {}, exp = 0, times = {}, atimes = {}, queries = 0 } end
  mem[f] = { rss = 0, c_bytes = 0, map = "" }
end

for r = 1, RUNS do
  for _, row in ipairs(plan) do
    local fam, map, stride = row[1], row[2], row[3]
    if QUICK then stride = stride * 4 end
    if exists(MAPS .. "/" .. map .. ".map") then
      io.stderr:write(("run %d/%d  %-15s"):format(r, RUNS, map))
      local acc = results[fam][r]
      for _, e in ipairs(engines(map, stride, r)) do
        local name, cmd = e[1], e[2]
        local res = run(cmd)
        if name == "astar" then
          for t in tostring(res.times_us):gmatch("[^,]+") do acc.atimes[#acc.atimes + 1] = tonumber(t) end
        end
        acc.sec[name] = (acc.sec[name] or 0) + res.seconds
        if name == "module" then
          acc.exp = acc.exp + res.expansions
          acc.queries = acc.queries + res.queries
          for t in tostring(res.times_us):gmatch("[^,]+") do acc.times[#acc.times + 1] = tonumber(t) end
          if res.c_bytes > mem[fam].c_bytes then
            mem[fam].c_bytes, mem[fam].map = res.c_bytes, map
          end
          if res.peak_rss_kb > mem[fam].rss then mem[fam].rss = res.peak_rss_kb end
        end
        io.stderr:write(("  %s %.3fs"):format(name, res.seconds))
      end
      io.stderr:write("\n")
    end
  end
end

local function fmt_ratio(x) return x ~= x and "n/a" or ("%.1fx"):format(x) end

-- JPS vs A*: total A* seconds over total module seconds for the family, per
-- run (the two ran side by side), median of the runs.  Mexp/s counts the
-- module's expansions (jump points under JPS).
print(("astar benchmark: %d runs, medians; maps from %s; %s"):format(RUNS, MAPS, os.date("!%Y-%m-%d")))
print()
print("| family | queries | median us/query | A* median us/query | JPS vs A* | Mexp/s | peak RSS "
  .. "| C bytes (largest map) | vs pure Lua | Lua heuristic vs pure Lua | vs Boost.Graph |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, f in ipairs(families) do
  local runs = results[f]
  if runs[1].queries > 0 then
    local us, aus, vs_a, eps, vs_lua, vs_luah, vs_boost = {}, {}, {}, {}, {}, {}, {}
    for r = 1, RUNS do
      local x = runs[r]
      us[r] = median(x.times)
      aus[r] = median(x.atimes)
      vs_a[r] = x.sec.astar / x.sec.module
      eps[r] = x.exp / x.sec.module
      vs_lua[r] = x.sec.pure_lua / x.sec.module
      vs_luah[r] = x.sec.pure_lua / x.sec.lua_h
      vs_boost[r] = x.sec.boost and x.sec.boost / x.sec.module or 0 / 0
    end
    print(("| %s | %d | %.1f | %.1f | %s | %.1f | %.1f MiB | %.2f MiB (%s) | %s | %s | %s |"):format(
      f, runs[1].queries, median(us), median(aus), fmt_ratio(median(vs_a)), median(eps) / 1e6,
      mem[f].rss / 1024, mem[f].c_bytes / 1048576,
      mem[f].map, fmt_ratio(median(vs_lua)), fmt_ratio(median(vs_luah)),
      have_boost and fmt_ratio(median(vs_boost)) or "not built"))
  end
end
if not have_boost then
  print("\nBoost.Graph baseline skipped: libboost-graph-dev is not installed (apt-get install libboost-graph-dev).")
end
