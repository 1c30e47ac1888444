-- bench/heuristics.lua -- precomputed heuristics against the plain ones on
-- the rooms and maze maps (part of `make bench`).
--
-- For each map: the same scenarios with euclidean, octile, astar.landmarks
-- (8 and 16) and astar.cluster_heuristic ({ count = 64 }); every answer
-- checked against the .scen optimum.  Reports expansions, total query time
-- (median of RUNS runs), and each precomputation's build time and size.
--
--   lua5.4 bench/heuristics.lua [runs]
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local RUNS = tonumber(arg[1] or "3")

local plan = { { "8room_000", 10 }, { "maze512-1-0", 120 } }

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  return c[(#c + 1) // 2]
end

local f = io.open(MAPS .. "/README.md")
if not f then
  print(("bench: %s is absent: no Moving AI maps, nothing to measure"):format(MAPS))
  os.exit(0)
end
f:close()

print("| map | heuristic | build s | memory | expansions | query s | vs octile |")
print("|---|---|---:|---:|---:|---:|---:|")
for _, row in ipairs(plan) do
  local map, stride = row[1], row[2]
  local grid = astar.maps.load(MAPS .. "/" .. map .. ".map")
  local scen = astar.maps.scenarios(MAPS .. "/" .. map .. ".map.scen")
  local kinds = { { "euclidean", "euclidean" }, { "octile", "octile" } }
  for _, k in ipairs({ 8, 16 }) do
    local t0 = os.clock()
    local h = astar.landmarks(grid, k)
    kinds[#kinds + 1] = { ("landmarks (%d)"):format(k), h, os.clock() - t0, k * 8 }
  end
  do
    local t0 = os.clock()
    local h = astar.cluster_heuristic(grid, { count = 64 })
    kinds[#kinds + 1] = { "clusters (64)", h, os.clock() - t0, 4 }
  end
  local octile_time
  for _, kind in ipairs(kinds) do
    local times, expanded = {}, 0
    for r = 1, RUNS do
      local total, exp = 0, 0
      for i = 1, #scen, stride do
        local s = scen[i]
        local t0 = os.clock()
        local p = grid:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], { heuristic = kind[2] })
        total = total + os.clock() - t0
        assert(p and math.abs(p.cost - s.optimal) <= s.tolerance, kind[1] .. ": wrong answer on " .. map)
        exp = exp + p.expanded
      end
      times[r] = total
      expanded = exp
    end
    local t = median(times)
    if kind[1] == "octile" then octile_time = t end
    local w, h = grid:size()
    print(("| %s | %s | %s | %s | %d | %.3f | %s |"):format(map, kind[1],
      kind[3] and ("%.2f"):format(kind[3]) or "-",
      kind[4] and ("%.1f MiB"):format(kind[4] * w * h / 1048576) or "-",
      expanded, t, octile_time and ("%.2fx"):format(octile_time / t) or "-"))
  end
end
