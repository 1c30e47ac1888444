-- bench/rts.lua -- an RTS through astar.planner (issue 18): 300 units of
-- sizes 1-3 on a Moving AI map, a 24-cell wall raised and lowered every 60
-- frames, every path found on a budget of 2 ms per frame.
--
--   lua5.4 bench/rts.lua                 every map, each in its own process
--   lua5.4 bench/rts.lua map <name>      one map, printed as key=value
--   FRAMES=n BUDGET_MS=b                 (defaults 1800 frames, 2 ms)
--   CONSOLIDATE=0                        no large allocation after the frame's
--                                        collector step (see (5) below)
--   WORST=n                              also prints the n worst frames: their
--                                        wall edits, orders and update (ms), the
--                                        planner's expansions and path checks
--   GC=auto                              Lua's collector left to run when it
--                                        likes (default: stopped, and stepped
--                                        once a frame after the pathfinding,
--                                        as games do; its time is reported)
-- The module is the one LUA_PATH and LUA_CPATH find (make bench sets them
-- to lua/ and build/).
--
-- Maps: AR0011SR (Baldur's Gate II, 512 x 512) from ../shared/maps (MAPS=dir),
-- and a 2048 x 2048 one: the first .map of that size in the directory, else
-- AR0011SR scaled x4 (every cell a 4 x 4 block, the way Moving AI scaled the
-- Baldur's Gate maps to 512), said so in the table.  Missing maps are
-- skipped with a message.
--
-- The game, per frame: (1) the wall toggles on frames that are multiples of
-- 60 (it goes up only when no unit's block stands on it or is stepping onto
-- it, else a frame later); (2) units whose time has come get an order (the
-- next goal of the map's .scen rows whose block is open for their size);
-- (3) planner:update(budget): new paths, failures, and paths the wall broke
-- (the unit then stops before the broken cell until its new path comes);
-- (4) every unit walks its path at SPEED cells per frame, and every cell it
-- enters is checked: its block must be open for its size.  A unit that
-- arrives gets a new order 30-90 frames later; the first orders are spread
-- over the first 60 frames (5 a frame).
--
-- Before the first frame, as a game loading its level would, the map's
-- components, clearance layer and the sized units' bit sets are built (the
-- "load ms" column; a first search of each size builds its bit sets).
-- Measured (CPU time, os.clock): the pathfinding time of each frame = the
-- wall's edits + the orders (planner:request) + planner:update; the frames a
-- request waited from its order to its answer (the planner's stats); cells
-- entered while blocked; memory (RSS, the Lua heap, grid:memory()).
-- Targets (issue 18): every unit routed within 120 frames of its order; the
-- worst frame at most 2.2 ms; no blocked cell ever entered.
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"
local FRAMES = tonumber(os.getenv("FRAMES") or "1800")
local BUDGET = tonumber(os.getenv("BUDGET_MS") or "2") / 1000
local WORST = tonumber(os.getenv("WORST") or "0")
local CONSOLIDATE = os.getenv("CONSOLIDATE") ~= "0"
local UNITS = 300
local WALL = 24
local TOGGLE_EVERY = 60
local DT, SPEED = 1 / 60, 30                 -- 60 frames a second; units walk 30 cells a second

local function rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return 0 end
  local s = f:read("*a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)")) or 0
end

local function percentile(list, q)
  local c = {}
  for i, v in ipairs(list) do c[i] = v end
  table.sort(c)
  if #c == 0 then return 0 end
  local k = math.max(1, math.ceil(q * #c))
  return c[k]
end

local function readable(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- The 2048 x 2048 map: a real one if the directory has one, else AR0011SR x4.
local function big_map()
  local p = io.popen("ls " .. MAPS .. "/*.map 2>/dev/null")
  local list = p and p:read("*a") or ""
  if p then p:close() end
  for path in list:gmatch("[^\n]+") do
    local f = io.open(path, "rb")
    local head = f and f:read(64) or ""
    if f then f:close() end
    if head:match("height 2048") and head:match("width 2048") then
      return path, 1
    end
  end
  return MAPS .. "/AR0011SR.map", 4
end

local MAP_LIST = {
  { name = "AR0011SR 512", path = function() return MAPS .. "/AR0011SR.map", 1 end },
  { name = "2048", path = big_map },
}

-- Loads a map scaled by s (each cell an s x s block); the scenarios with it.
local function load(astar, path, s)
  local scen = astar.maps.scenarios(path .. ".scen")
  if s == 1 then return astar.maps.load(path), scen end
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  local h, w = tonumber(text:match("height (%d+)")), tonumber(text:match("width (%d+)"))
  local out = { "type octile", "height " .. h * s, "width " .. w * s, "map" }
  local body = text:match("\nmap\r?\n(.*)$")
  for row in body:gmatch("[^\r\n]+") do
    local wide = row:gsub(".", function(c) return c:rep(s) end)
    for _ = 1, s do out[#out + 1] = wide end
  end
  local scaled = {}
  for i, sc in ipairs(scen) do
    scaled[i] = { start = { (sc.start[1] - 1) * s + 1, (sc.start[2] - 1) * s + 1 },
      goal = { (sc.goal[1] - 1) * s + 1, (sc.goal[2] - 1) * s + 1 } }
  end
  return astar.maps.parse(table.concat(out, "\n") .. "\n"), scaled
end

-- The wall: the run of WALL open cells in a row nearest the map's centre.
local function find_wall(grid)
  local w, h = grid:size()
  local best, bd
  for y = 2, h - 1 do
    local run = 0
    for x = 1, w do
      if grid:is_blocked(x, y) then run = 0 else run = run + 1 end
      if run >= WALL then
        local x0 = x - WALL + 1
        local d = (x0 + WALL / 2 - w / 2) ^ 2 + (y - h / 2) ^ 2
        if not bd or d < bd then best, bd = { x0, y }, d end
      end
    end
  end
  local cells = {}
  for k = 0, WALL - 1 do cells[#cells + 1] = { best[1] + k, best[2] } end
  return cells
end

local function run_map(name)
  local astar = require("astar")
  local entry
  for _, m in ipairs(MAP_LIST) do if m.name == name then entry = m end end
  local path, scale = entry.path()
  if not (readable(path) and readable(path .. ".scen")) then
    return { skipped = "no " .. path .. " (or its .scen)" }
  end
  local grid, scen = load(astar, path, scale)
  local W, H = grid:size()
  local wall = find_wall(grid)
  local wall_id = {}
  for _, c in ipairs(wall) do wall_id[grid:id(c[1], c[2])] = true end
  -- what a game does while the level loads: the map's components and its
  -- clearance layer (sized units) are built once, before the first frame
  local tw = os.clock()
  grid:connected(1, 1, W, H)
  grid:clearance(1, 1)
  -- and the bit sets of each unit size's jump point search: a first search
  -- of each size builds them (src/jpsunits.c)
  for k = 2, 3 do
    for _, sc in ipairs(scen) do
      local x, y = sc.start[1], sc.start[2]
      if grid:clearance(x, y) >= k then grid:find_path(x, y, x, y, { size = k }); break end
    end
  end
  local warm_ms = (os.clock() - tw) * 1e3
  collectgarbage()
  local rss0, heap0 = rss_kb(), collectgarbage("count")
  local gc_auto = os.getenv("GC") == "auto"
  if not gc_auto then collectgarbage("stop") end
  local gc_ms, consolidated = {}, 0

  -- units and their orders
  local units, row = {}, 0
  local function next_row(size, what)
    for _ = 1, #scen do
      row = row % #scen + 1
      local c = scen[row][what]
      if c[1] + size - 1 <= W and c[2] + size - 1 <= H and grid:clearance(c[1], c[2]) >= size then
        return c[1], c[2]
      end
    end
    error("no scenario cell fits size " .. size)
  end
  for i = 1, UNITS do
    local u = { id = i, size = (i - 1) % 3 + 1 }
    u.x, u.y = next_row(u.size, "start")
    u.next_order = 1 + (i - 1) % 60
    units[i] = u
  end
  -- a unit stands on cell (u.x, u.y) (its block's top-left cell), the cell
  -- of its follower's position
  local function where(u) return u.x, u.y end
  local planner = astar.planner(grid, { locate = where })

  local frame_ms, edit_frame_ms, worst = {}, {}, {}
  local st = { orders = 0, answers = 0, unreachable = 0, invalidated = 0, entered = 0, bad = 0,
    toggles = 0, postponed = 0, arrived = 0, late = 0, holds = 0 }
  local wall_up, toggle_due = false, TOGGLE_EVERY
  local clock = os.clock

  -- a unit's block at (x, y) on the wall?
  local function on_wall(x, y, k)
    for dy = 0, k - 1 do
      for dx = 0, k - 1 do
        if wall_id[(y + dy - 1) * W + x + dx] then return true end
      end
    end
    return false
  end

  for frame = 1, FRAMES do
    local edit_t, edited = 0, false
    -- (1) the wall
    if frame >= toggle_due then
      local blocked_by_unit = false
      if not wall_up then
        for _, u in ipairs(units) do
          local x, y = where(u)
          if on_wall(x, y, u.size) then blocked_by_unit = true; break end
          if u.f and not u.hold then         -- the cell it is stepping into
            local ax, ay = grid:to_cell(u.f.x + 0.6 * u.f.dx, u.f.y + 0.6 * u.f.dy)
            if ax and on_wall(ax, ay, u.size) then blocked_by_unit = true; break end
          end
        end
      end
      if blocked_by_unit then
        st.postponed = st.postponed + 1
      else
        wall_up = not wall_up
        local te = clock()
        for _, c in ipairs(wall) do grid:set_blocked(c[1], c[2], wall_up) end
        edit_t = clock() - te
        st.toggles = st.toggles + 1
        toggle_due = toggle_due + TOGGLE_EVERY
        edited = true
      end
    end
    local s0 = WORST > 0 and planner:stats()  -- (the instrument's, outside the times)
    local t0 = clock()                        -- (the scan of units above is the game's, not pathfinding)
    -- (2) orders
    for _, u in ipairs(units) do
      if u.next_order == frame then
        u.f = nil
        local gx, gy = next_row(u.size, "goal")
        planner:request(u, { u.x, u.y }, { gx, gy }, { size = u.size })
        u.ordered = frame
        st.orders = st.orders + 1
      end
    end
    -- (3) the planner, with what is left of the frame's budget after the
    -- edits and the orders
    local t_orders = clock() - t0
    local left = BUDGET - edit_t - t_orders
    local results = planner:update(math.max(left, 1e-6))
    local t1 = clock()                        -- (what the game does with them is not pathfinding)
    for _, r in ipairs(results) do
      local u = r.key
      if r.reason == "invalidated" then
        st.invalidated = st.invalidated + 1
        u.hold = true                         -- it stops until its new path comes
      else
        st.answers = st.answers + 1
        if r.waited > 120 then
          st.late = st.late + 1
          st.late_last = frame                -- when the last late answer came
        end
        if r.path then
          local first = r.path.xy[1]
          assert(first[1] == u.x and first[2] == u.y, "a path that does not start where the unit stands")
          if u.f then u.f:retarget(r.path) else u.f = astar.follower(r.path, { speed = SPEED }) end
          u.hold = false
        else
          st.unreachable = st.unreachable + 1
          u.next_order = frame + 30
        end
      end
    end
    local ms = (edit_t + t1 - t0) * 1e3
    frame_ms[#frame_ms + 1] = ms
    if edited then edit_frame_ms[#edit_frame_ms + 1] = ms end
    if WORST > 0 then
      local s1 = planner:stats()
      worst[#worst + 1] = { frame = frame, ms = ms, edit = edit_t * 1e3, orders = t_orders * 1e3,
        update = (t1 - t0 - t_orders) * 1e3, results = #results, expansions = s1.expansions - s0.expansions,
        checks = s1.checks - s0.checks, pending = s0.pending }
      table.sort(worst, function(a, b) return a.ms > b.ms end)
      worst[WORST + 1] = nil
    end
    -- (4) walking (astar.follower, world units = cells): every cell entered
    -- is checked
    for _, u in ipairs(units) do
      local f = u.f
      if f and not u.hold then
        local x, y, arrived = f:update(DT)
        local cx, cy = grid:to_cell(x, y)
        if cx ~= u.x or cy ~= u.y then
          st.entered = st.entered + 1
          if grid:clearance(cx, cy) < u.size then st.bad = st.bad + 1 end
          u.x, u.y = cx, cy
        end
        if arrived then
          st.arrived = st.arrived + 1
          u.f = nil
          planner:cancel(u)                   -- no longer watched
          u.next_order = frame + 30 + (u.id * 7 + frame) % 61
        end
      elseif u.hold then
        st.holds = st.holds + 1
      end
    end
    -- (5) the collector's step for the frame (the game's, not pathfinding:
    -- without it, a collection step lands inside whichever call allocates,
    -- often a search step, and costs up to ~10 ms with these paths' tables)
    if not gc_auto then
      local tg = clock()
      collectgarbage("step", 256)
      -- what the step freed sits in glibc's fastbins; the next allocation
      -- of 1 KB or more consolidates them all (up to ~4 ms after a step
      -- that swept much): one here, a 16 KB table, pays that in the GC's
      -- time, where it belongs, not in the next frame's first path table
      -- (CONSOLIDATE=0 leaves it to fall where it may)
      if CONSOLIDATE then
        local t = {}
        for i = 1, 1024 do t[i] = i end
        consolidated = consolidated + #t
      end
      gc_ms[#gc_ms + 1] = (clock() - tg) * 1e3
    end
  end
  local s = planner:stats()
  collectgarbage()
  for i, f in ipairs(worst) do
    io.stderr:write(("worst %d: frame %d %.3f ms = edit %.3f + orders %.3f + update %.3f; %d results, %d expansions,"
      .. " %d path checks, %d pending\n"):format(i, f.frame, f.ms, f.edit, f.orders, f.update, f.results,
      f.expansions, f.checks, f.pending))
  end
  return {
    map = ("%s%s (%dx%d)"):format(path:match("([^/]+)%.map$"), scale > 1 and (" x" .. scale) or "", W, H),
    frames = FRAMES, orders = st.orders, load_ms = warm_ms,
    gc = gc_auto and "auto" or "stepped", gc_step_median_ms = percentile(gc_ms, 0.5),
    gc_step_max_ms = percentile(gc_ms, 1), answered = st.answers, unreachable = st.unreachable,
    pending = s.pending, arrived = st.arrived, invalidated = st.invalidated, holds = st.holds,
    wait_median = s.wait.median, wait_p99 = s.wait.p99, wait_max = s.wait.max, late = st.late,
    late_last_frame = st.late_last or 0,
    frame_median_ms = percentile(frame_ms, 0.5), frame_p99_ms = percentile(frame_ms, 0.99),
    frame_max_ms = percentile(frame_ms, 1), edit_frame_max_ms = percentile(edit_frame_ms, 1),
    over_2_2 = (function()
      local n = 0
      for _, v in ipairs(frame_ms) do if v > 2.2 then n = n + 1 end end
      return n
    end)(),
    entered = st.entered, bad = st.bad, toggles = st.toggles, postponed = st.postponed,
    expansions = s.expansions, checks = s.checks,
    rss_mb = (rss_kb() - rss0) / 1024, heap_mb = (collectgarbage("count") - heap0) / 1024,
    grid_mb = grid:memory() / 2 ^ 20,
  }
end

if arg[1] == "map" then
  local out = run_map(arg[2])
  local keys = {}
  for k in pairs(out) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = out[k]
    print(("%s=%s"):format(k, type(v) == "number" and v ~= math.floor(v) and ("%.3f"):format(v) or tostring(v)))
  end
  return
end

print(("RTS through astar.planner: %d units (sizes 1-3), a %d-cell wall toggled every %d frames,"
  .. " %g ms budget a frame, %d frames"):format(UNITS, WALL, TOGGLE_EVERY, BUDGET * 1e3, FRAMES))
print("(pathfinding time per frame = the wall's edits + orders + planner:update; CPU time)")
print()
print("| map | orders | answered, re-issues included (unreachable) | wait median / p99 / max (frames) | over 120 | "
  .. "frame ms median / p99 / max (edit frames' max) | frames > 2.2 ms | invalidated | cells entered | "
  .. "entered blocked | RSS / heap / grid MB | load ms |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for _, m in ipairs(MAP_LIST) do
  local p = io.popen(("%s bench/rts.lua map %q 2>&1"):format(LUA, m.name))
  local text = p:read("*a")
  p:close()
  local v = {}
  for k, val in text:gmatch("([%w_]+)=([^\n]*)") do v[k] = val end
  if v.skipped then
    print(("| %s | skipped: %s |"):format(m.name, v.skipped))
  elseif not v.map then
    print(("| %s | failed: %s |"):format(m.name, (text:gsub("\n", " "))))
  else
    local row = "| %s | %s | %s (%s) | %s / %s / %s | %s | %s / %s / %s (%s) | %s | %s | %s | %s"
      .. " | %.0f / %.0f / %.1f | %s |"
    print(row:format(
      v.map, v.orders, v.answered, v.unreachable, v.wait_median, v.wait_p99, v.wait_max, v.late,
      v.frame_median_ms, v.frame_p99_ms, v.frame_max_ms, v.edit_frame_max_ms, v.over_2_2, v.invalidated,
      v.entered, v.bad, tonumber(v.rss_mb), tonumber(v.heap_mb), tonumber(v.grid_mb), v.load_ms))
  end
end
