-- bench/sized.lua -- jump point search for units of size k against size 1
-- (issue 18, item 2: sizes 2-3 at most 1.5x the size-1 time on the Moving
-- AI game maps).
--
--   lua5.4 bench/sized.lua [runs]        (default 3 runs)
--   CHECK=1 lua5.4 bench/sized.lua       also checks every answer against
--                                        the sized A* (algorithm = "astar")
--
-- Rows: the game family's rows of bench/plan.lua (every stride-th row of
-- each map) whose start and goal both fit a unit of size 3, so the three
-- sizes search the same rows.  Per row the three sizes run one after the
-- other (the order rotating from row to row), each a find_path through the
-- Lua API as a game calls it, timed with os.clock (CPU time).  The bit sets
-- of each size (src/jpsunits.c) are built before the timing, by a first
-- search of each size, as the clearance layer is.
-- Prints per map the rows, the ms of each size and the ratios size 2 / size
-- 1 and size 3 / size 1 (medians over the runs), then the totals.  The
-- module is the one LUA_PATH and LUA_CPATH find (make bench sets them).
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local RUNS = tonumber(arg[1] or "3")
local CHECK = os.getenv("CHECK") == "1"
local plan = dofile("bench/plan.lua")

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median

local maps = {}
for _, row in ipairs(plan.rows) do
  if row[1] == "game" then
    local path = ("%s/%s.map"):format(MAPS, row[2])
    local f = io.open(path, "rb")
    if f then
      f:close()
      local grid = astar.maps.load(path)
      local rows = {}
      for i, sc in ipairs(astar.maps.scenarios(path .. ".scen")) do
        if i % row[3] == 0 and grid:clearance(sc.start[1], sc.start[2]) >= 3
            and grid:clearance(sc.goal[1], sc.goal[2]) >= 3 then
          rows[#rows + 1] = sc
        end
      end
      if #rows > 0 then
        for k = 2, 3 do -- the bit sets, before the timing
          grid:find_path(rows[1].start[1], rows[1].start[2], rows[1].start[1], rows[1].start[2], { size = k })
        end
        maps[#maps + 1] = { name = row[2], grid = grid, rows = rows, t = { {}, {}, {} } }
      end
    else
      print(("(%s: missing, skipped)"):format(path))
    end
  end
end

local clock = os.clock
local totals = { {}, {}, {} }
for run = 1, RUNS do
  local sum = { 0, 0, 0 }
  for _, m in ipairs(maps) do
    local t = { 0, 0, 0 }
    for i, sc in ipairs(m.rows) do
      for j = 0, 2 do
        local k = (i + j) % 3 + 1
        local opts = { size = k }
        local t0 = clock()
        local p = m.grid:find_path(sc.start[1], sc.start[2], sc.goal[1], sc.goal[2], opts)
        t[k] = t[k] + clock() - t0
        if CHECK and run == 1 then
          local a = m.grid:find_path(sc.start[1], sc.start[2], sc.goal[1], sc.goal[2],
            { size = k, algorithm = k > 1 and "astar" or nil })
          assert((a and a.cost) == (p and p.cost), ("%s row %d size %d: %s vs A* %s"):format(
            m.name, i, k, tostring(p and p.cost), tostring(a and a.cost)))
        end
      end
    end
    for k = 1, 3 do
      m.t[k][run] = t[k]
      sum[k] = sum[k] + t[k]
    end
  end
  for k = 1, 3 do totals[k][run] = sum[k] end
end

print(("Sized jump point search on the game maps' rows that fit size 3, %d runs (medians; CPU ms)"):format(RUNS))
print()
print("| map | rows | size 1 ms | size 2 ms | size 3 ms | size 2 / size 1 | size 3 / size 1 |")
print("|---|---:|---:|---:|---:|---:|---:|")
local function line(name, rows, t)
  local r2, r3 = {}, {}
  for run = 1, RUNS do
    r2[run] = t[2][run] / t[1][run]
    r3[run] = t[3][run] / t[1][run]
  end
  print(("| %s | %s | %.1f | %.1f | %.1f | %.2f | %.2f |"):format(name, rows, median(t[1]) * 1e3,
    median(t[2]) * 1e3, median(t[3]) * 1e3, median(r2), median(r3)))
end
local nrows = 0
for _, m in ipairs(maps) do
  line(m.name, #m.rows, m.t)
  nrows = nrows + #m.rows
end
line("**total**", nrows, totals)
