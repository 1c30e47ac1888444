-- bench/fields.lua -- the "fields and batches" rows of `make bench`:
--   field update vs rebuild   a 256² street map (Berlin_0_256), a distance
--                             field to one source; one random cell toggled,
--                             then field:update() against a fresh
--                             grid:distances (medians over the edits, and
--                             the median of the per-edit ratios)
--   batch 1 vs 2 threads      400 requests from the scenarios of a 512²
--                             map (Boston_0_512), astar.batch with threads
--                             = 1 and threads = 2, alternating.  Wall
--                             time is what a game sees, but on a machine
--                             shared with other work it measures the
--                             others; so also the critical path: the
--                             busiest worker's own CPU time (per-thread
--                             clocks, astar.core._batch_info), which is
--                             the wall time on idle cores
-- CPU time (os.clock) per edit, alternating update and rebuild, so both
-- see the same machine (shared and noisy).
--
--   lua5.4 bench/fields.lua [edits]
local astar = require("astar")
local maps = require("astar.maps")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local EDITS = tonumber(arg[1] or "200")

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local function field_rows()
  local path = MAPS .. "/Berlin_0_256.map"
  if not exists(path) then
    print("field update: " .. path .. " is absent")
    return
  end
  local g = maps.load(path)
  local w, h = g:size()
  local seed = 12345
  local function r(n) -- a small LCG: the same edits on every run
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
  local sx, sy
  repeat sx, sy = r(w), r(h) until not g:is_blocked(sx, sy)
  local f = g:distances({ { sx, sy } })
  local tu, tr, ratios, kinds = {}, {}, {}, {}
  for i = 1, EDITS do
    local x, y
    repeat x, y = r(w), r(h) until not (x == sx and y == sy)
    g:set_blocked(x, y, not g:is_blocked(x, y))
    local t0 = os.clock()
    local how = f:update()
    local t1 = os.clock()
    local fresh = g:distances({ { sx, sy } })
    local t2 = os.clock()
    kinds[how] = (kinds[how] or 0) + 1
    tu[i], tr[i], ratios[i] = t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1)
    if i % 50 == 0 then -- spot check: the repair equals the fresh field
      for yy = 1, h, 7 do
        for xx = 1, w, 5 do assert(f:get(xx, yy) == fresh:get(xx, yy), "repair differs") end
      end
    end
  end
  print(("field update vs rebuild (%s, %dx%d, %d single-cell edits, %d repaired)"):format(
    "Berlin_0_256", w, h, EDITS, kinds.repaired or 0))
  print(("  update  median %.3f ms"):format(median(tu) * 1e3))
  print(("  rebuild median %.3f ms"):format(median(tr) * 1e3))
  print(("  update / rebuild: median of per-edit ratios %.3f (target <= 0.2)"):format(median(ratios)))
end

-- Wall-clock seconds: os.time has only seconds; a monotonic clock through
-- the shell would cost a process per reading, so a batch is timed as the
-- median of several runs read with io.popen("date +%s.%N") around them.
local function now()
  local p = io.popen("date +%s.%N")
  local t = tonumber(p:read("*l"))
  p:close()
  return t
end

local function batch_rows()
  local name = "Boston_0_512"
  local path = MAPS .. "/" .. name .. ".map"
  if not exists(path) then
    print("batch: " .. path .. " is absent")
    return
  end
  local g = maps.load(path)
  local reqs = {}
  for _, sc in ipairs(maps.scenarios(path .. ".scen")) do
    reqs[#reqs + 1] = { sc.start[1], sc.start[2], sc.goal[1], sc.goal[2] }
  end
  -- 400 requests spread over every bucket (long and short paths)
  local pick, step = {}, #reqs / 400
  for i = 1, 400 do pick[i] = reqs[math.floor((i - 1) * step) + 1] end
  local REPS = tonumber(os.getenv("BATCH_REPS") or "5")
  local core = require("astar.core")
  local wall, cpu, ratios = { [1] = {}, [2] = {} }, { [1] = {}, [2] = {} }, {}
  local crit, cratios, split = { [1] = {}, [2] = {} }, {}, nil
  local check = astar.batch(g, pick, { threads = 1 })
  for rep = 1, REPS do
    local t = {}
    for _, n in ipairs(rep % 2 == 1 and { 1, 2 } or { 2, 1 }) do
      local w0, c0 = now(), os.clock()
      local paths = astar.batch(g, pick, { threads = n })
      local c1, w1 = os.clock(), now()
      for i = 1, #pick, 37 do assert(paths[i].cost == check[i].cost, "batch differs") end
      wall[n][rep], cpu[n][rep], t[n] = w1 - w0, c1 - c0, w1 - w0
      local info = core._batch_info()
      crit[n][rep] = math.max(table.unpack(info.cpu))
      if n == 2 then split = table.concat(info.requests, "/") end
    end
    ratios[rep] = t[2] / t[1]
    cratios[rep] = crit[2][rep] / crit[1][rep]
  end
  print(("batch 1 vs 2 threads (%s, %d requests, %d runs each, %d processors online)"):format(
    name, #pick, REPS, tonumber(io.popen("nproc"):read("*l")) or 0))
  for _, n in ipairs({ 1, 2 }) do
    print(("  threads = %d  wall median %.1f ms, process CPU %.1f ms, busiest worker CPU %.1f ms"):format(
      n, median(wall[n]) * 1e3, median(cpu[n]) * 1e3, median(crit[n]) * 1e3))
  end
  print(("  2 threads / 1 thread: wall %.2f, critical path (busiest worker CPU) %.2f "
    .. "(medians of per-run ratios; target <= 0.7; requests per worker %s)"):format(
    median(ratios), median(cratios), split))
end


field_rows()
batch_rows()
