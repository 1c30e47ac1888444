-- bench/goals.lua -- the path to the nearest of several goals (find_path
-- with goals = {...}) against what a game writes without it: one find_path
-- per goal, keeping the cheapest.  CPU time per answer (os.clock), medians
-- over the trials, every column in the same run, each first in turn.
--
--   lua5.4 bench/goals.lua [map] [trials]
--
-- map: a Moving AI map under $MAPS (default ../shared/maps; default map
-- Boston_0_512).  `make bench` runs it.  Each
-- trial draws a start and k goals among the map's open cells (the same for
-- every column).  Columns: goals = {...} as find_path runs it by default
-- (one jump point search per goal up to 16 goals, else the Dijkstra
-- search); goals with algorithm = "astar", which is what a query runs (A*
-- on the least of the goals' octile distances up to 16 goals, else the
-- Dijkstra search); k single find_path calls (jump point search); k single
-- A* searches.
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local map = arg[1] or "Boston_0_512"
local trials = tonumber(arg[2] or 30)
local g = astar.maps.load(MAPS .. "/" .. map .. ".map")
local w, h = g:size()
local clock = os.clock

local seed = 12345
local function rnd(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
local function open_cell()
  while true do
    local x, y = rnd(w), rnd(h)
    if not g:is_blocked(x, y) then return { x, y } end
  end
end

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median

local function time(fn)
  local t0 = clock()
  local r = fn()
  return (clock() - t0) * 1e3, r
end

print(("%s, %d trials; ms per answer, medians (cost agreement checked)"):format(map, trials))
print("| goals | goals= default | goals= astar (= query) | k × find_path | k × A* "
  .. "| default ÷ k × find_path | astar ÷ k × A* |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for _, k in ipairs({ 1, 4, 16, 64 }) do
  local cols = { {}, {}, {}, {} }
  for trial = 1, trials do
    local s = open_cell()
    local goals = {}
    for i = 1, k do goals[i] = open_cell() end
    local function singles(opts)
      return function()
        local best = math.huge
        for _, q in ipairs(goals) do
          local p = g:find_path(s[1], s[2], q[1], q[2], opts)
          if p and p.cost < best then best = p.cost end
        end
        return best
      end
    end
    local function together(opts)
      return function()
        local p = g:find_path(s[1], s[2], opts)
        return p and p.cost or math.huge
      end
    end
    local fns = {
      together({ goals = goals }),
      together({ goals = goals, algorithm = "astar" }),
      singles(nil),
      singles({ algorithm = "astar" }),
    }
    local got = {}
    for j = 0, 3 do -- each column first in turn (a new start and goals find the caches cold)
      local i = (j + trial) % 4 + 1
      local t, c = time(fns[i])
      cols[i][#cols[i] + 1] = t
      got[i] = c
    end
    for i = 2, 4 do
      assert(got[i] == got[1] or math.abs(got[i] - got[1]) <= 1e-9 * math.max(1, got[1]),
        ("costs differ: %s %.17g %.17g %.17g %.17g"):format(k, got[1], got[2], got[3], got[4]))
    end
  end
  local m = {}
  for i = 1, 4 do m[i] = median(cols[i]) end
  print(("| %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f |"):format(k, m[1], m[2], m[3], m[4],
    m[1] / m[3], m[2] / m[4]))
end
