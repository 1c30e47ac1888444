-- bench/agents.lua -- the "many agents" table of `make bench` (issue 9):
-- what a game that paths many units on big, changing maps pays per frame.
--
--   lua5.4 bench/agents.lua [runs]        every row, each run in its own process
--   lua5.4 bench/agents.lua row <name>    one row, printed as key=value
--
-- Each row runs in a fresh process (a clean RSS baseline) `runs` times
-- (default 3); the table shows medians.  Times are CPU time (os.clock).  The
-- module is the one LUA_CPATH finds, so the same script measures another
-- build (LUA_CPATH='<dir>/?.so;;' lua5.4 bench/agents.lua), e.g. main's.
--
-- Rows:
--   find_path x300    300 agents each find a path (pairs from the map's .scen
--                     rows) on a 512x512 street map: ms per frame (all 300),
--                     and the RSS the frame adds
--   sliced x300       300 time-sliced queries on a 256x256 street map, each
--                     stepped 200 expansions per frame until done: the RSS
--                     the 300 live queries add after two frames (target <=
--                     40 MB), the first frame's ms (all 300 step) and the total
--   first query 4096  the first short query (60 cells, 60 expansions) on a
--                     fresh 4096x4096 grid against a repeat (target <= 3x)
--   unreachable N     a goal walled off on an open N x N grid: the first query
--                     after the wall was built (it relabels the components)
--                     and a repeat (before issue 9: a flood of the component,
--                     101 ms on 1024, 425 ms on 2048)
--   (the fields rows of issue 9 -- field update vs rebuild, batch 1 vs 2
--   threads -- are bench/fields.lua's, the next table of make bench)
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"

local function rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return 0 end
  local s = f:read("*a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)")) or 0
end

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  if n == 0 then return 0 end
  return n % 2 == 1 and c[(n + 1) / 2] or (c[n / 2] + c[n / 2 + 1]) / 2
end

-- The start/goal pairs of a scenario file (1-based cells), n of them,
-- cycling through its rows.
local function pairs_of(astar, scen, n)
  local rows, out = astar.maps.scenarios(scen), {}
  for i = 1, n do out[i] = rows[(i * 7) % #rows + 1] end
  return out
end

local ROWS = {}

ROWS.find_path = function(astar)
  local grid = astar.maps.load(MAPS .. "/Boston_0_512.map")
  local agents = pairs_of(astar, MAPS .. "/Boston_0_512.map.scen", 300)
  collectgarbage()
  local before, times = rss_kb(), {}
  for frame = 1, 5 do
    local t0 = os.clock()
    for _, a in ipairs(agents) do
      local p = grid:find_path(a.start[1], a.start[2], a.goal[1], a.goal[2])
      assert(p, "no path")
    end
    times[frame] = (os.clock() - t0) * 1e3
  end
  return { ms_per_frame = median(times), rss_added_mb = (rss_kb() - before) / 1024 }
end

ROWS.sliced = function(astar)
  local grid = astar.maps.load(MAPS .. "/Berlin_0_256.map")
  local agents = pairs_of(astar, MAPS .. "/Berlin_0_256.map.scen", 300)
  collectgarbage()
  collectgarbage("stop")            -- every query stays alive: measure them all
  local before = rss_kb()
  local qs, times, live_mb = {}, {}, 0
  for i, a in ipairs(agents) do qs[i] = grid:query(a.start[1], a.start[2], a.goal[1], a.goal[2]) end
  local frames, running = 0, #qs
  while running > 0 do
    local t0 = os.clock()
    running = 0
    for _, q in ipairs(qs) do
      if q:step(200) == "searching" then running = running + 1 end
    end
    frames = frames + 1
    times[frames] = (os.clock() - t0) * 1e3
    if frames == 2 then live_mb = (rss_kb() - before) / 1024 end
  end
  collectgarbage("restart")
  local total = 0
  for _, t in ipairs(times) do total = total + t end
  return { live_rss_mb = live_mb, first_frame_ms = times[1], total_ms = total, frames = frames }
end

ROWS.first_touch = function(astar)
  local grid = astar.grid(4096, 4096)
  local function once()
    local t0 = os.clock()
    local p = grid:find_path(2048, 2048, 2108, 2048)
    local dt = (os.clock() - t0) * 1e3
    assert(p and #p.nodes == 61)
    return dt, p.expanded
  end
  local first, expanded = once()
  local rep = {}
  for i = 1, 15 do rep[i] = once() end
  local r = median(rep)
  return { first_ms = first, repeat_ms = r, ratio = first / r, expanded = expanded }
end

local function unreachable(astar, n)
  local grid = astar.grid(n, n)
  local c = n - 100                 -- a walled 19x19 room near a corner
  for i = c - 10, c + 10 do
    grid:set_blocked(i, c - 10, true); grid:set_blocked(i, c + 10, true)
    grid:set_blocked(c - 10, i, true); grid:set_blocked(c + 10, i, true)
  end
  local function once(sx)
    local t0 = os.clock()
    local p, why, stats = grid:find_path(sx, 5, c, c)
    local dt = (os.clock() - t0) * 1e3
    assert(p == nil and why == "unreachable")
    return dt, stats.expanded
  end
  local first, expanded = once(5)
  local rep = {}
  for i = 1, 9 do rep[i] = once(5 + i) end
  return { first_ms = first, repeat_ms = median(rep), expanded = expanded }
end
ROWS.unreachable_1024 = function(astar) return unreachable(astar, 1024) end
ROWS.unreachable_2048 = function(astar) return unreachable(astar, 2048) end

local ORDER = { "find_path", "sliced", "first_touch", "unreachable_1024", "unreachable_2048" }

if arg[1] == "row" then
  local astar = require("astar")
  local r = ROWS[arg[2]](astar)
  local keys = {}
  for k in pairs(r) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = ("%s=%.4f"):format(k, r[k]) end
  print(table.concat(out, " "))
  return
end

local f = io.open(MAPS .. "/README.md", "r")
if not f then
  print(("agents bench: %s is absent: no Moving AI maps, nothing to measure"):format(MAPS))
  return
end
f:close()

local RUNS = tonumber(arg[1] or "3")
local results = {}
for _, name in ipairs(ORDER) do
  local acc = {}
  for _ = 1, RUNS do
    local p = assert(io.popen(("%s bench/agents.lua row %s 2>&1"):format(LUA, name)))
    local out = p:read("*a")
    p:close()
    local got = false
    for k, v in out:gmatch("([%w_]+)=(%S+)") do
      acc[k] = acc[k] or {}
      acc[k][#acc[k] + 1] = tonumber(v)
      got = true
    end
    if not got then error("agents bench row " .. name .. " failed:\n" .. out) end
  end
  local m = {}
  for k, v in pairs(acc) do m[k] = median(v) end
  results[name] = m
end

local R = results
print(("\nMany agents (medians of %d runs, CPU time)\n"):format(RUNS))
print("| scenario | figure |")
print("|---|---|")
print(("| 300 agents find_path, 512x512 street map | %.1f ms per frame, +%.1f MB RSS |")
  :format(R.find_path.ms_per_frame, R.find_path.rss_added_mb))
print(("| 300 sliced queries, 256x256 street map, 200 expansions each per frame | "
  .. "+%.1f MB RSS live after 2 frames, %.1f ms the first frame (all 300 step), %.0f ms over all %d frames |")
  :format(R.sliced.live_rss_mb, R.sliced.first_frame_ms, R.sliced.total_ms, R.sliced.frames))
print(("| first 60-expansion query on a fresh 4096x4096 grid | %.3f ms first, %.3f ms repeat (%.1fx) |")
  :format(R.first_touch.first_ms, R.first_touch.repeat_ms, R.first_touch.ratio))
print(("| unreachable goal, 1024x1024 | %.1f ms first after an edit (relabel), %.3f ms repeat, %d expanded |")
  :format(R.unreachable_1024.first_ms, R.unreachable_1024.repeat_ms, R.unreachable_1024.expanded))
print(("| unreachable goal, 2048x2048 | %.1f ms first after an edit (relabel), %.3f ms repeat, %d expanded |")
  :format(R.unreachable_2048.first_ms, R.unreachable_2048.repeat_ms, R.unreachable_2048.expanded))
-- (field update vs rebuild and batch 1 vs 2 threads: bench/fields.lua)
