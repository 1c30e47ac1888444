-- The pure-Lua backend (lua/astar/pure/) against Jumper, the pure-Lua
-- pathfinding library most LÖVE games use, and against the native module,
-- on the same Moving AI queries, in one run.
--
--   lua5.4 bench/pure.lua [JUMPER_DIR [ROWS_PER_MAP [ROUNDS]]]
--   luajit bench/pure.lua /tmp/jumper 12 3
--   FAMILIES=random,rooms lua5.4 bench/pure.lua /tmp/jumper 12 3
--
-- JUMPER_DIR is a checkout of github.com/Yonaba/Jumper (the directory that
-- holds jumper/); it is never part of this repository.  Without it the bench
-- says so and measures the pure backend against the native module only.
-- ROWS_PER_MAP rows are taken evenly from each map's scenario file (default
-- 12).  Jumper runs three ways: its defaults (A* with the Manhattan
-- estimate, which overestimates on 8-connected maps: fast, not optimal), A*
-- with its octile estimate (admissible: the shortest paths under its rule),
-- and its jump point search (octile); ROUNDS rounds (default 3) alternate the sides, and each query's CPU
-- time (os.clock) is its median over the rounds.  Every pure-backend path
-- is checked against the row's optimal length; Jumper's paths are measured
-- against it too (Jumper allows a diagonal step past one blocked corner,
-- which Moving AI's rule does not, and its default heuristic, Manhattan,
-- overestimates on 8-connected grids).
--
-- Run from the repository's top (it finds lua/ itself, and the native module
-- in build/, or build/luajit/ under LuaJIT: make build/luajit/astar/core.so);
-- without a native module for this interpreter its columns are left out.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (jit and "build/luajit/?.so;" or "build/?.so;") .. package.cpath
local pure = require("astar.pure.core")
local maps = require("astar.maps")
local native_ok, native = pcall(require, "astar.core")
if native_ok and native.version ~= pure.version then native_ok = false end
if not native_ok then
  print("no native module for this interpreter (make; make build/luajit/astar/core.so): its columns are skipped")
end

local jumper_dir, rows_per_map, rounds = arg[1], tonumber(arg[2]) or 12, tonumber(arg[3]) or 3
local Jgrid, Jfinder
if jumper_dir and jumper_dir ~= "" and jumper_dir ~= "-" then
  package.path = jumper_dir .. "/?.lua;" .. jumper_dir .. "/?/init.lua;" .. package.path
  local ok1, g = pcall(require, "jumper.grid")
  local ok2, f = pcall(require, "jumper.pathfinder")
  if ok1 and ok2 then Jgrid, Jfinder = g, f else
    print(("Jumper not found under %s (%s): its columns are skipped"):format(jumper_dir, tostring(ok1 and f or g)))
  end
else
  print("no Jumper directory given (bench/pure.lua JUMPER_DIR): Jumper's columns are skipped")
end

local dir = "../shared/maps"
local MAPS = { { "arena", "game" }, { "den312d", "game" }, { "lak303d", "game" }, { "brc202d", "game" },
  { "AR0011SR", "game" }, { "CatwalkAlley", "game" }, { "Berlin_0_256", "street" },
  { "Boston_0_512", "street" }, { "maze512-1-0", "maze" }, { "random512-10-0", "random" },
  { "random512-20-0", "random" }, { "8room_000", "rooms" } }
-- FAMILIES=random,rooms (environment) keeps those families' maps only
local families = os.getenv("FAMILIES")
if families and families ~= "" then
  local keep, kept = {}, {}
  for f in families:gmatch("[^,]+") do keep[f] = true end
  for _, m in ipairs(MAPS) do
    if keep[m[2]] then kept[#kept + 1] = m end
  end
  MAPS = kept
end

local function median(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = v end
  table.sort(s)
  local n = #s
  if n == 0 then return 0 / 0 end
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

local clock = os.clock
local function timed(f)
  local t0 = clock()
  local a, b = f()
  return clock() - t0, a, b
end

local SQRT2 = math.sqrt(2)
local function jumper_length(path)
  local len, prev = 0, nil
  for node in path:nodes() do
    if prev then
      local dx, dy = math.abs(node._x - prev._x), math.abs(node._y - prev._y)
      len = len + ((dx == 1 and dy == 1) and SQRT2 or (dx + dy))
    end
    prev = node
  end
  return len
end

print(("%s, %d rows per map, %d rounds (CPU time; medians per query; ratios: total time)"):format(
  jit and jit.version or _VERSION, rows_per_map, rounds))

local sides = { "pure" }
if native_ok then sides[#sides + 1] = "native" end
if Jgrid then
  sides[#sides + 1] = "jumper_astar"
  sides[#sides + 1] = "jumper_octile"
  sides[#sides + 1] = "jumper_jps"
end

local by_family, order = {}, {}
local all = { pure = 0, native = 0, jumper_astar = 0, jumper_octile = 0, jumper_jps = 0 }
local not_optimal, jumper_longer, rows_total = 0, { jumper_astar = 0, jumper_octile = 0, jumper_jps = 0 }, 0
local worst = { jumper_astar = 0, jumper_octile = 0, jumper_jps = 0 }
for _, m in ipairs(MAPS) do
  local name, family = m[1], m[2]
  local text = assert(io.open(dir .. "/" .. name .. ".map", "rb")):read("*a")
  local list = maps.parse_scenarios(assert(io.open(dir .. "/" .. name .. ".map.scen", "rb")):read("*a"))
  local gp = maps.parse(text) -- the backend astar.maps picked; rebuilt on each side below
  local w, h = gp:size()
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = gp:is_blocked(x, y) and 1 or 0 end
    rows[y] = row
  end
  -- each side's grid, built the same way
  local function build(core)
    local g = core.grid(w, h)
    for y = 1, h do
      for x = 1, w do
        if rows[y][x] == 1 then g:set_blocked(x, y, true) end
      end
    end
    return g
  end
  local grids = { pure = build(pure) }
  if native_ok then grids.native = build(native) end
  local finders = {}
  if Jgrid then
    local jg = Jgrid(rows)
    finders.jumper_astar = Jfinder(jg, "ASTAR", 0)       -- Jumper's defaults: A*, Manhattan
    finders.jumper_octile = Jfinder(jg, "ASTAR", 0)      -- A* with its admissible octile estimate
    finders.jumper_octile:setHeuristic("CARDINTCARD")
    finders.jumper_jps = Jfinder(jg, "JPS", 0)
    finders.jumper_jps:setHeuristic("CARDINTCARD")        -- octile
  end
  local picked = {}
  local stepn = math.max(1, math.floor(#list / rows_per_map))
  for i = stepn, #list, stepn do
    if #picked < rows_per_map then picked[#picked + 1] = list[i] end
  end
  local times = {}
  for _, s in ipairs(sides) do times[s] = {} end
  -- warm-up, untimed: the first query on a grid builds what later ones reuse
  -- (the pure backend's jump tables and search arrays, the native module's
  -- labels and bit rows, Jumper's nodes)
  do
    local row = picked[1]
    local sx, sy, gx, gy = row.start[1], row.start[2], row.goal[1], row.goal[2]
    for _, s in ipairs(sides) do
      if grids[s] then grids[s]:find_path(sx, sy, gx, gy) else finders[s]:getPath(sx, sy, gx, gy) end
    end
  end
  for round = 1, rounds do
    for k, row in ipairs(picked) do
      local sx, sy, gx, gy = row.start[1], row.start[2], row.goal[1], row.goal[2]
      -- alternate the order of the sides from round to round and row to row
      for j = 1, #sides do
        local s = sides[(j + round + k) % #sides + 1]
        local t, p
        if s == "pure" or s == "native" then
          t, p = timed(function() return grids[s]:find_path(sx, sy, gx, gy) end)
          if round == 1 and s == "pure" then
            rows_total = rows_total + 1
            if not p or math.abs(p.cost - row.optimal) > row.tolerance then
              not_optimal = not_optimal + 1
              print(("NOT OPTIMAL: %s row (%d, %d) -> (%d, %d): %s, optimal %.6f"):format(name, sx, sy, gx, gy,
                p and ("%.6f"):format(p.cost) or "no path", row.optimal))
            end
          end
        else
          t, p = timed(function() return finders[s]:getPath(sx, sy, gx, gy) end)
          if round == 1 and p then
            local len = jumper_length(p)
            if len > row.optimal + row.tolerance then
              jumper_longer[s] = jumper_longer[s] + 1
              worst[s] = math.max(worst[s], len / row.optimal - 1)
            end
          end
        end
        local tk = times[s][k] or {}
        tk[round] = t
        times[s][k] = tk
      end
    end
  end
  local f = by_family[family]
  if not f then
    f = { q = {} }
    for _, s in ipairs(sides) do f[s] = 0; f.q[s] = {} end
    by_family[family] = f
    order[#order + 1] = family
  end
  for _, s in ipairs(sides) do
    for k = 1, #picked do
      local med = median(times[s][k])
      f[s] = f[s] + med
      all[s] = all[s] + med
      f.q[s][#f.q[s] + 1] = med
    end
  end
  collectgarbage()
end

local function us(v) return ("%.0f"):format(v * 1e6) end
local header = "| family | pure µs/query (median) |"
if native_ok then header = header .. " native µs | pure / native |" end
if Jgrid then
  header = header .. " Jumper A* (default) µs | / pure | Jumper A* octile µs | / pure | Jumper JPS µs | / pure |"
end
print(header)
for _, fam in ipairs(order) do
  local f = by_family[fam]
  local line = ("| %s | %s |"):format(fam, us(median(f.q.pure)))
  if native_ok then line = line .. (" %s | %.1fx |"):format(us(median(f.q.native)), f.pure / f.native) end
  if Jgrid then
    for _, s in ipairs({ "jumper_astar", "jumper_octile", "jumper_jps" }) do
      line = line .. (" %s | %.1fx |"):format(us(median(f.q[s])), f[s] / f.pure)
    end
  end
  print(line)
end
local line = ("total: pure %.3f s"):format(all.pure)
if native_ok then line = line .. (", native %.3f s (pure / native %.1fx)"):format(all.native, all.pure / all.native) end
if Jgrid then
  line = line .. (", Jumper A* %.3f s (%.1fx pure), A* octile %.3f s (%.1fx), JPS %.3f s (%.1fx)"):format(
    all.jumper_astar, all.jumper_astar / all.pure, all.jumper_octile, all.jumper_octile / all.pure,
    all.jumper_jps, all.jumper_jps / all.pure)
end
print(line)
print(("pure backend: %d of %d rows optimal"):format(rows_total - not_optimal, rows_total))
if Jgrid then
  print(("Jumper longer than optimal: A* (Manhattan) %d rows (worst +%.1f%%), A* octile %d (+%.1f%%), "
    .. "JPS %d (+%.1f%%); (a diagonal past one blocked corner, which Jumper allows, can make it shorter)")
    :format(jumper_longer.jumper_astar, worst.jumper_astar * 100, jumper_longer.jumper_octile,
      worst.jumper_octile * 100, jumper_longer.jumper_jps, worst.jumper_jps * 100))
end
if not_optimal > 0 then os.exit(1) end
