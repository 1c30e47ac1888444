-- bench/warthog.lua -- the same Moving AI queries through warthog's jump
-- point searches (ShortestPathLab's warthog-jps on warthog-core) beside this
-- module's default, for issue 19's anchors.  Not in CI and not in make bench:
-- it needs sources the user fetched.
--
--   lua5.4 bench/warthog.lua <warthog-jps dir> [runs] [algs]
--
-- <warthog-jps dir> is a checkout of warthog-jps with warthog-core in its
-- extern/warthog-core (git clone --recursive; otherwise its CMake fetches
-- warthog-core itself).  It is built once, Release, into <dir>/build
-- (cmake and a C++20 compiler).  algs: comma-separated warthog algorithms
-- (default "jps,jps2,jps+,jps2+").  runs: default 3.
--
-- For every row of bench/plan.lua (the rows bench/run.lua and bench/ab.lua
-- use: every stride-th scenario row) a scenario file of those rows is
-- written to build/warthog/, and each run alternates warthog's algorithms
-- with bench/module_bench.lua on this tree's build/ (the default
-- algorithm).  warthog checks every answer against the optimum
-- (--checkopt, it exits otherwise), module_bench.lua does too.  Times:
-- warthog's own per-query "nanos" (its search alone, wall clock) and
-- module_bench.lua's per-query CPU time around find_path (the Lua call and
-- the path table included); the table gives per family the total and the
-- median query of each, and warthog's over this module's (median of the
-- runs; below 1, warthog is faster).
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"
local dir, RUNS = arg[1], tonumber(arg[2] or "3")
local ALGS = {}
for a in (arg[3] or "jps,jps2,jps+,jps2+"):gmatch("[^,]+") do ALGS[#ALGS + 1] = a end
if not dir or not RUNS then
  io.stderr:write("usage: lua5.4 bench/warthog.lua <warthog-jps dir> [runs] [algs]\n")
  os.exit(2)
end

local function sh(cmd)
  local ok = os.execute(cmd)
  if not ok then error("failed: " .. cmd) end
end

local bin = dir .. "/build/warthog-jps"
if not io.open(bin, "rb") then
  sh(("cmake -B '%s/build' -S '%s' -DCMAKE_BUILD_TYPE=Release >/dev/null"):format(dir, dir))
  sh(("cmake --build '%s/build' --target warthog_jps >/dev/null"):format(dir))
end

local function median(t)
  table.sort(t)
  local n = #t
  if n == 0 then return 0 end
  return n % 2 == 1 and t[(n + 1) / 2] or (t[n / 2] + t[n / 2 + 1]) / 2
end

local PLAN = dofile("bench/plan.lua")
sh("mkdir -p build/warthog")

-- The scenario file of a plan row: its header and every stride-th row.
local function scen_of(map, stride)
  local path = ("build/warthog/%s-%d.scen"):format(map, stride)
  local out = assert(io.open(path, "wb"))
  local i = 0
  for line in io.lines(("%s/%s.map.scen"):format(MAPS, map)) do
    if line:match("^version") then
      out:write(line, "\n")
    elseif line:match("%S") then
      if i % stride == 0 then out:write(line, "\n") end
      i = i + 1
    end
  end
  out:close()
  return path
end

-- warthog on one map: appends each query's microseconds to times.
local function warthog(alg, map, scen, times)
  local cmd = ("'%s' --alg '%s' --scen '%s' --map '%s/%s.map' --checkopt 2>&1")
    :format(bin, alg, scen, MAPS, map)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local col
  for line in out:gmatch("[^\n]+") do
    local fields = {}
    for f in line:gmatch("[^\t]+") do fields[#fields + 1] = f end
    if fields[1] == "id" then
      for k, name in ipairs(fields) do if name == "nanos" then col = k end end
    elseif col and tonumber(fields[1]) and fields[col] then
      times[#times + 1] = tonumber(fields[col]) / 1000
    end
  end
  if not col or out:find("optimality check failed") then error("warthog failed: " .. cmd .. "\n" .. out) end
end

-- this module on one map (module_bench.lua's times_us).
local function module(map, stride, times)
  local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' %s bench/module_bench.lua "
    .. "%s/%s.map %s/%s.map.scen %d 2>&1"):format(LUA, MAPS, map, MAPS, map, stride)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  if out:match("mismatches=(%d+)") ~= "0" then error("module_bench failed: " .. cmd .. "\n" .. out) end
  for t in (out:match("times_us=(%S+)") or ""):gmatch("[^,]+") do times[#times + 1] = tonumber(t) end
end

local function sum(t)
  local s = 0
  for _, v in ipairs(t) do s = s + v end
  return s
end

local head = "| family | astar default: total ms, median us |"
local rule = "|---|---:|"
for _, a in ipairs(ALGS) do
  head = head .. (" %s total / astar | %s median / astar |"):format(a, a)
  rule = rule .. "---:|---:|"
end
print(("warthog: %s; %d runs; ratios are warthog's time over this module's, same run"):format(dir, RUNS))
print(head)
print(rule)
for _, fam in ipairs(PLAN.families) do
  local mt, mm, ratios = {}, {}, {}
  for r = 1, RUNS do
    local mine, theirs = {}, {}
    for k = 1, #ALGS do theirs[k] = {} end
    for _, row in ipairs(PLAN.rows) do
      if row[1] == fam then
        local scen = scen_of(row[2], row[3])
        if r % 2 == 1 then module(row[2], row[3], mine) end
        for k, a in ipairs(ALGS) do warthog(a, row[2], scen, theirs[k]) end
        if r % 2 == 0 then module(row[2], row[3], mine) end
      end
    end
    mt[r], mm[r] = sum(mine), median(mine)
    for k = 1, #ALGS do
      ratios[k] = ratios[k] or { t = {}, m = {} }
      ratios[k].t[r] = sum(theirs[k]) / mt[r]
      ratios[k].m[r] = median(theirs[k]) / mm[r]
    end
  end
  local line = ("| %s | %.1f, %.1f |"):format(fam, median(mt) / 1000, median(mm))
  for k = 1, #ALGS do
    line = line .. (" %.2f | %.2f |"):format(median(ratios[k].t), median(ratios[k].m))
  end
  print(line)
end
