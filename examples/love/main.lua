-- astar in LÖVE 11: agents wandering on a shared, time-sliced search budget,
-- and the Amnesia-style monster that stalks the player out of sight.
--
--   make build/luajit/astar/core.so         (LÖVE runs LuaJIT: the module built for it)
--   love examples/love                      play: arrows, H, F, R, Tab, mouse, Esc
--   xvfb-run -a love examples/love --frames 240 --screenshot /tmp/astar.png
--     headless: N frames with a fixed dt, a PNG of the last one, summary
--     lines on stdout, exit status 0 (1 on any error)
--   --heuristic NAME                        the monster's first heuristic
--   --scene 1|2|3                           start in that scene
--
-- What it shows:
--   * 8 agents walk between random cells.  Their orders go to one planner
--     (astar.planner), which spends BUDGET expansions per frame on them, oldest
--     order first, so the frame time stays bounded however many agents are
--     thinking at once.
--   * The monster re-paths every REPATH_EVERY seconds to a cell next to the
--     player with penalty = grid:visible_from(player): cells the player can
--     see cost DANGER more to enter, so it creeps round behind the walls.
--     Its last search's fill (visited = true) is the purple overlay; H cycles
--     its heuristic, and the status bar shows what each one expanded.
--   * Everyone walks smoothed routes (smooth = true: straight lines priced
--     under the query's own costs, so the monster's stay in the dark) with an
--     astar.follower, in world coordinates (cell_size = CELL: pixels).
--   * A 2 x 2 siege engine (size = 2) rolls between two yards by the wide
--     doors; the agents take the one-cell corridor it does not fit.
--   * A door (red) shuts and opens every GATE_EVERY seconds: the planner
--     watches the paths it delivered, says which the door cuts, and
--     searches them again from where their walkers stand.
--   * Tab (or 1, 2): scene 2, any-angle paths (any_angle = true) against the
--     grid path on a field of pillars, with their lengths; click to move
--     the goal (left) or the start (right), Space for another field.
--   * Tab again (or 3): scene 3, a hex grid (astar.hex) with rocks and marsh.

-- luacheck: globals love
-- (the game sets LÖVE's callbacks: love.load, love.update, love.draw ...)

--------------------------------------------------------------------------------
-- Loading the module from the repository
--------------------------------------------------------------------------------

-- LÖVE's own require only sees the game's directory; the module lives two
-- levels up (lua/ for the Lua part, build/luajit/ for the C core built for
-- LuaJIT), so point the standard searchers at the repository root.
local function repo_root()
  local src = love.filesystem.getSource():gsub("[/\\]+$", "")
  return src:match("^(.*)[/\\]examples[/\\]love$") or (src .. "/../..")
end

local astar -- required in love.load, once errors are reported the headless way
-- With the pure-Lua backend (astar.backend == "lua": a .love shipped without
-- the native module, or ASTAR_BACKEND=lua) the level runs on cell paths: no
-- smoothed routes, no siege engine (size = 2), no any-angle or hex scenes,
-- which need the native module.  The planner and the followers work as on
-- the native module (the pure-Lua grid has version, changes, path_valid and
-- paths whose metatable names the grid).
local PURE = false

--------------------------------------------------------------------------------
-- The level and the tuning
--------------------------------------------------------------------------------

-- 40 x 30 cells: rooms, doors and corridors.  P is where the player starts,
-- M the monster's lairs (it starts in the first and, after catching the
-- player, comes back from the one farthest from them).
local LEVEL = [[
########################################
#..........#..............#............#
#..........#..............#............#
#..........#...##....##...#............#
#..............##....##...#.....M......#
#..........#..............#............#
#..........#..............#............#
#..........#...##....##...#............#
#..........#...##....##...#............#
#####.######..............######.#######
#...........#######.#######............#
#......................................#
#...........####.######.####...........#
####.########..........#..#.########.###
#.......#..............#..#........#...#
#.......#..............#..#........#...#
#.......#..............#...........#...#
#..........###....###..#..#........#...#
#......................#..#............#
#.......#.......P......#..#........#...#
#.......#......##......#..#........#...#
#.......#..............#..#........#...#
#.......#.................#####.####...#
####..###..............................#
#.......######.#########...............#
#......................................#
#.......#..........#.......#...........#
#.......#..........#.......#...........#
#.M.....#..........#.......#...........#
########################################
]]

local CELL = 20                 -- pixels per cell
local AGENT_COUNT = 8
local BUDGET = 32               -- expansions per frame, shared by every order to the planner
                                -- (small on purpose: a path takes several frames)
local BUDGET_TIME = 0.001       -- and never more than 1 ms a frame
local AGENT_SPEED = 7           -- cells per second
local MONSTER_SPEED = 3.5
local PLAYER_STEP = 0.12        -- seconds between steps while an arrow is held
local REPATH_EVERY = 0.5        -- seconds between monster searches
local SIGHT = 12                -- it is dark: the player sees this many cells far
local DANGER = 12               -- penalty_scale: entering a cell in sight costs 12 more
local SIEGE_SIZE = 2            -- the siege engine covers 2 x 2 cells
local SIEGE_SPEED = 3
local SIEGE_STOPS = { { 34, 26 }, { 3, 26 } } -- its yards (top-left cells)
local GATE = { 17, 13 }         -- the door from the middle corridor to the player's hall shuts and opens ...
local GATE_EVERY = 1.25         -- ... every this many seconds (never on anyone standing near it)
local FIXED_DT = 1 / 60         -- the headless run's clock
local HEURISTICS = { "octile", "manhattan", "euclidean", "zero" }
local AGENT_COLOURS = {
  { 0.35, 0.75, 1.00 }, { 0.40, 0.90, 0.50 }, { 1.00, 0.80, 0.30 }, { 0.95, 0.55, 0.85 },
  { 0.55, 0.95, 0.95 }, { 0.85, 0.95, 0.45 }, { 1.00, 0.60, 0.45 }, { 0.70, 0.65, 1.00 },
}

--------------------------------------------------------------------------------
-- State
--------------------------------------------------------------------------------

local grid, W, H
local open_cells = {}           -- every cell reachable from the player's start
local lairs = {}
local rng                       -- seeded: a headless run is the same every time
local player = { x = 1, y = 1, cooldown = 0 }
local monster = { h = 1, timer = 0, by_h = {}, speed = MONSTER_SPEED * CELL }
local agents = {}
local planner                   -- astar.planner(grid): the agents' and the siege engine's orders
local gate = { shut = false, timer = GATE_EVERY }
local siege = { size = SIEGE_SIZE, leg = 0, wait = 0, speed = SIEGE_SPEED * CELL }
local scene = 1                 -- 1: the level; 2: any-angle against the grid path; 3: hexes
local lab = {}                  -- scene 2's state
local headless                  -- { frames =, screenshot = } with --frames
local exit_on_error = false
local show_fill = true
local message, message_time = nil, 0
local stats = {
  frames = 0, agent_paths = 0, agent_expansions = 0, monster_searches = 0,
  monster_expansions = 0, in_flight = 0, max_in_flight = 0, used = 0, caught = 0,
  walk_checks = 0, segments = 0, walk_bad = 0, siege_paths = 0, siege_bad = 0,
  gate_toggles = 0, gate_waits = 0, invalidated = 0, held = 0,
  scene2_frames = 0, scene3_frames = 0, scene2_draws = 0, scene3_draws = 0,
}

--------------------------------------------------------------------------------
-- Walking along a path
--------------------------------------------------------------------------------

-- A walker walks its path with an astar.follower: straight lines between
-- the path's points in world units (pixels: the grid has cell_size = CELL,
-- so the follower's grid:to_world gives them), at w.speed pixels a second.
-- (px, py) is where it is; (x, y) the cell it stands on (grid:to_cell),
-- where a new search starts; for a unit of size k that is the top-left cell
-- of its k x k block.  The headless run checks every frame that the block
-- there is open (grid:clearance >= size).
local function advance(w, dt)
  if w.f and not w.hold then w.px, w.py = w.f:update(dt) end
  local x, y = grid:to_cell(w.px, w.py)
  if x then w.x, w.y = x, y end
  if headless then
    stats.walk_checks = stats.walk_checks + 1
    local bad
    if PURE then bad = grid:is_blocked(w.x, w.y) else bad = grid:clearance(w.x, w.y) < (w.size or 1) end
    if bad then stats.walk_bad = stats.walk_bad + 1 end
  end
end

local function at_end(w) return not w.f or w.f.arrived end

-- A new path for a walker (smooth = true: points).  A walker already on its
-- way keeps its position and joins the new path at its nearest point
-- (f:retarget: a few pixels, within its cell); a placed one starts at the
-- path's first point, the centre of its cell.  Consecutive points have line
-- of sight for the unit's size; the headless run checks that too.  The
-- route's world points are kept for drawing what is left of it.
local function follow(w, p)
  if w.f then w.f:retarget(p) else w.f = astar.follower(p, { speed = w.speed }) end
  w.hold = false
  local route, total = {}, 0
  for k, q in ipairs(p.points or p.xy) do
    local wx, wy = grid:to_world(q[1], q[2])
    if k > 1 then total = total + math.sqrt((wx - route[k - 1][1]) ^ 2 + (wy - route[k - 1][2]) ^ 2) end
    route[k] = { wx, wy, total }
  end
  w.route, w.route_length = route, total
  local points = p.points or p.xy       -- the cell path itself on the pure-Lua backend
  if headless then
    for k = 1, #points - 1 do
      local a, b = points[k], points[k + 1]
      stats.segments = stats.segments + 1
      if not grid:line_of_sight(a[1], a[2], b[1], b[2], w.size or 1) then
        stats.walk_bad = stats.walk_bad + 1
      end
    end
  end
end

-- Places a walker on the centre of cell (x, y), standing still.
local function place(w, x, y)
  w.x, w.y = x, y
  w.px, w.py = grid:to_world(x, y)
  w.f, w.route = nil, nil
end

-- The rest of a walker's route, from where it is, as a flat list for
-- lg.line: the points farther along than what it has walked.
local function route_ahead(w)
  local pts = { w.px, w.py }
  if not w.f then return pts end
  local walked = w.route_length - w.f:remaining()
  for _, q in ipairs(w.route) do
    if q[3] > walked then
      pts[#pts + 1] = q[1]
      pts[#pts + 1] = q[2]
    end
  end
  return pts
end

--------------------------------------------------------------------------------
-- Agents: time-sliced queries on a shared budget
--------------------------------------------------------------------------------

local function new_target(a)
  local c
  repeat c = open_cells[rng:random(#open_cells)] until c[1] ~= a.x or c[2] ~= a.y
  a.gx, a.gy = c[1], c[2]
  -- an order to the planner: the agent is its key; nothing is searched
  -- until planner:update spends the frame's budget on it
  planner:request(a, { a.x, a.y }, { a.gx, a.gy }, { smooth = not PURE })
  a.thinking = true
end

local siege_found -- the siege engine's answers (below)

-- Spends the frame's budget on the orders, oldest first (the siege
-- engine's have priority 1), and hands each new path to its walker.
local function plan()
  local before = planner:stats().expansions
  -- (headless: expansions only, so that every run is the same whatever the machine)
  local budget = headless and { expansions = BUDGET } or { expansions = BUDGET, time = BUDGET_TIME }
  for _, r in ipairs(planner:update(budget)) do
    local w = r.key
    if r.reason == "invalidated" then
      -- the gate shut across its path: it stops where it is (never near the
      -- gate) until the planner's new path, searched from its cell, comes
      w.hold, w.thinking = true, true
      stats.invalidated = stats.invalidated + 1
    elseif w == siege then
      siege_found(r)
    elseif r.path then
      follow(w, r.path)                -- it walks the smoothed route (watched until its next order)
      w.thinking = false
      w.wait = 0.1 + rng:random() * 0.4 -- a moment at each destination
      stats.agent_paths = stats.agent_paths + 1
    else
      new_target(w)                    -- cannot happen on this level, but never get stuck
    end
  end
  local n = planner:pending()
  stats.in_flight = n
  if n > stats.max_in_flight then stats.max_in_flight = n end
  stats.used = planner:stats().expansions - before
  stats.agent_expansions = stats.agent_expansions + stats.used
end

local function update_agents(dt)
  for _, a in ipairs(agents) do
    if a.f then
      advance(a, dt)
      if at_end(a) then
        a.wait = a.wait - dt
        if a.wait <= 0 and not a.thinking then new_target(a) end
      end
    end
  end
end

-- The gate: it shuts only when no one (walker, monster, player) stands
-- within two cells of it, else it tries again next frame; the planner then
-- reports the paths it cuts, and the monster searches again at once.
local function near_gate(x, y, size)
  size = size or 1
  return GATE[1] >= x - 2 and GATE[1] <= x + size + 1 and GATE[2] >= y - 2 and GATE[2] <= y + size + 1
end

local function update_gate(dt)
  gate.timer = gate.timer - dt
  if gate.timer > 0 then return end
  if not gate.shut then
    local all = { monster, siege, player }
    for _, a in ipairs(agents) do all[#all + 1] = a end
    for _, w in ipairs(all) do
      if near_gate(w.x, w.y, w.size) then
        stats.gate_waits = stats.gate_waits + 1
        return
      end
    end
  end
  gate.shut = not gate.shut
  grid:set_blocked(GATE[1], GATE[2], gate.shut)
  gate.timer = GATE_EVERY
  stats.gate_toggles = stats.gate_toggles + 1
  if gate.shut then monster.timer = 0 end -- (it searches in this frame's update_monster)
end

-- R: new destinations for everyone.  A new order replaces a thinking
-- agent's last (its search is freed at once); walkers stop at the centre of
-- their cell.
local function scatter()
  for _, a in ipairs(agents) do
    if a.thinking then
      new_target(a)
    elseif a.f then                   -- stop at the centre of the cell it is on
      follow(a, grid:find_path(a.x, a.y, a.x, a.y))
      a.wait = 0
    end
  end
end

--------------------------------------------------------------------------------
-- The player and the monster
--------------------------------------------------------------------------------

-- What the player sees: a Lua set of cell ids (for drawing without a C call
-- per cell per frame), and the field the monster's search uses as penalty.
local function look()
  local seen = grid:visible_from(player.x, player.y, SIGHT)
  player.lit = {}
  for y = 1, H do
    for x = 1, W do
      if seen:get(x, y) ~= 0 then player.lit[(y - 1) * W + x] = true end
    end
  end
  -- The player's cell and the cells around it are always in sight, and the
  -- monster must end there whatever route it takes.  Charging for them would
  -- only add a constant the heuristics cannot foresee, and every heuristic
  -- would then expand nearly the whole level.
  for dy = -1, 1 do
    for dx = -1, 1 do
      local x, y = player.x + dx, player.y + dy
      if x >= 1 and x <= W and y >= 1 and y <= H then seen:set(x, y, 0) end
    end
  end
  player.danger = seen
end

local function move_player(dx, dy)
  local function open(x, y) return x >= 1 and x <= W and y >= 1 and y <= H and not grid:is_blocked(x, y) end
  local x, y = player.x, player.y
  -- diagonal moves follow the grid's own rule: no cutting corners
  if dx ~= 0 and dy ~= 0 and not (open(x + dx, y) and open(x, y + dy)) then
    if open(x + dx, y) then dy = 0 elseif open(x, y + dy) then dx = 0 else return end
  end
  if open(x + dx, y + dy) then
    place(player, x + dx, y + dy)
    look()
  end
end

-- The monster searches to the player's own cell and walks until it stands
-- next to the player: A* picks the best cell next to the player itself.  Cells in the
-- player's sight cost DANGER more, so the route stays in the dark as long
-- as the detour is worth it.
local function search_monster()
  monster.timer = REPATH_EVERY
  local h = HEURISTICS[monster.h]
  local p, why, st = grid:find_path(monster.x, monster.y, player.x, player.y, {
    heuristic = h, penalty = player.danger, penalty_scale = DANGER, visited = true,
    smooth = not PURE,
  })
  local r = p or st
  stats.monster_searches = stats.monster_searches + 1
  stats.monster_expansions = stats.monster_expansions + r.expanded
  monster.by_h[h] = r.expanded
  monster.fill = r.visited
  monster.cost = p and p.cost
  monster.why = why
  if p then
    local in_sight = 0
    for k = 2, #p.xy - 1 do
      local c = p.xy[k]
      if player.lit[(c[2] - 1) * W + c[1]] then in_sight = in_sight + 1 end
    end
    monster.cells, monster.in_sight = p.xy, in_sight
    follow(monster, p)                 -- it walks the smoothed route
  else
    monster.cells, monster.f, monster.route = nil, nil, nil
  end
end

local function spawn_monster()
  local best, far = lairs[1], -1
  for _, l in ipairs(lairs) do
    local d = (l[1] - player.x) ^ 2 + (l[2] - player.y) ^ 2
    if d > far then best, far = l, d end
  end
  place(monster, best[1], best[2])
  monster.cells, monster.timer = nil, 0
end

-- It searches from the cell it is on, wherever on its route it is: the new
-- route starts with the few pixels to that cell's centre.  It catches the
-- player on reaching a cell next to them.
local function update_monster(dt)
  monster.timer = monster.timer - dt
  if monster.timer <= 0 then search_monster() end
  advance(monster, dt)
  if math.abs(monster.x - player.x) <= 1 and math.abs(monster.y - player.y) <= 1 then
    stats.caught = stats.caught + 1
    message, message_time = "The monster got you.  It slinks back to its lair...", 2
    spawn_monster()
  end
end

--------------------------------------------------------------------------------
-- The siege engine: a 2 x 2 unit (size = 2)
--------------------------------------------------------------------------------

-- It rolls between two yards.  Its cell is the top-left of its 2 x 2 block;
-- size = 2 keeps the whole block on open cells, so it takes the wide doors
-- round the middle hall while the agents squeeze along the bottom corridor.
local function siege_next()
  siege.leg = siege.leg % #SIEGE_STOPS + 1
  local goal = SIEGE_STOPS[siege.leg]
  planner:request(siege, { siege.x, siege.y }, goal, { size = SIEGE_SIZE, smooth = true, priority = 1 })
  siege.thinking = true
end

siege_found = function(r)
  local p = r.path
  if not p then error("the siege engine has no route: " .. tostring(r.reason)) end
  siege.thinking = false
  stats.siege_paths = stats.siege_paths + 1
  if headless then                     -- every block on its cell path is open
    for _, c in ipairs(p.xy) do
      if grid:clearance(c[1], c[2]) < SIEGE_SIZE then stats.siege_bad = stats.siege_bad + 1 end
    end
  end
  siege.length = p.length
  follow(siege, p)
end

local function update_siege(dt)
  if PURE then return end              -- size = 2 needs the native module
  advance(siege, dt)
  if at_end(siege) and not siege.thinking then
    siege.wait = siege.wait - dt
    if siege.wait <= 0 then siege_next(); siege.wait = 1 end
  end
end

local function update_player(dt)
  player.cooldown = player.cooldown - dt
  if headless or player.cooldown > 0 then return end
  local down = love.keyboard.isDown
  local dx = (down("right") and 1 or 0) - (down("left") and 1 or 0)
  local dy = (down("down") and 1 or 0) - (down("up") and 1 or 0)
  if dx ~= 0 or dy ~= 0 then
    move_player(dx, dy)
    player.cooldown = PLAYER_STEP
  end
end

--------------------------------------------------------------------------------
-- Scene 2: any-angle paths (Tab, 1, 2)
--------------------------------------------------------------------------------

-- A field of random pillars and walls (20% of the cells), the same for a
-- seed.  The grid path (8-connected cells) and the any-angle path
-- (any_angle = true: Theta*, turning only where it must) between two cells,
-- both drawn, with their lengths.  Left click: the goal; right click: the
-- start; Space: another field.
local LAB_W, LAB_H = 40, 30

local function lab_search()
  local g, s, t = lab.grid, lab.start, lab.goal
  lab.cells = g:find_path(s[1], s[2], t[1], t[2])
  lab.any = g:find_path(s[1], s[2], t[1], t[2], { any_angle = true })
  lab.ok = nil
  local p = lab.any
  if p and lab.cells then              -- what the headless run checks
    local first, last = p.points[1], p.points[#p.points]
    lab.ok = first[1] == s[1] and first[2] == s[2] and last[1] == t[1] and last[2] == t[2]
      and p.length <= lab.cells.length + 1e-9
    for k = 1, #p.points - 1 do
      local a, b = p.points[k], p.points[k + 1]
      lab.ok = lab.ok and g:line_of_sight(a[1], a[2], b[1], b[2])
    end
  end
end

local function lab_load(seed)
  lab.seed = seed or 7
  local r = love.math.newRandomGenerator(lab.seed)
  local g = astar.grid(LAB_W, LAB_H, { cell_size = CELL })
  local blocked = 0
  while blocked < 0.2 * LAB_W * LAB_H do
    local w, h = r:random(1, 4), r:random(1, 4)
    if r:random() < 0.5 then w = 1 else h = 1 end -- pillars and short walls
    local x0, y0 = r:random(1, LAB_W - w + 1), r:random(1, LAB_H - h + 1)
    for y = y0, y0 + h - 1 do
      for x = x0, x0 + w - 1 do
        if not g:is_blocked(x, y) then g:set_blocked(x, y, true); blocked = blocked + 1 end
      end
    end
  end
  lab.start, lab.goal = { 2, 2 }, { LAB_W - 1, LAB_H - 1 }
  for _, c in ipairs({ lab.start, lab.goal }) do g:set_blocked(c[1], c[2], false) end
  lab.grid = g
  lab_search()
  -- a field that walls the start off: clear the cells round it and try again
  if not lab.cells then
    for y = 1, LAB_H do for x = 1, LAB_W do
      if (x <= 4 and y <= 4) or (x >= LAB_W - 3 and y >= LAB_H - 3) then g:set_blocked(x, y, false) end
    end end
    lab_search()
  end
end

local function lab_click(px, py, button)
  local x, y = lab.grid:to_cell(px, py)
  if not x or lab.grid:is_blocked(x, y) then return end
  if button == 1 then lab.goal = { x, y } elseif button == 2 then lab.start = { x, y } end
  lab_search()
end

--------------------------------------------------------------------------------
-- Scene 3: a hex grid (Tab, 3)
--------------------------------------------------------------------------------

-- astar.hex with pointy-top hexagons in rows (layout odd_r), 12 pixels from
-- centre to corner: random rocks (blocked) and marsh (cost 3), the path
-- between two cells over six neighbours.  Same controls as scene 2.
local HEX_W, HEX_H, HEX_SIZE = 37, 32, 12
local hexes = {}

local function hex_search()
  local hx, s, t = hexes.grid, hexes.start, hexes.goal
  hexes.path = hx:find_path(s[1], s[2], t[1], t[2])
  hexes.ok = nil
  local p = hexes.path
  if p then                            -- what the headless run checks
    local first, last = p.xy[1], p.xy[#p.xy]
    local ok = first[1] == s[1] and first[2] == s[2] and last[1] == t[1] and last[2] == t[2]
    local cost = 0
    for k = 2, #p.xy do                -- each step to one of the six neighbours, open
      local a, b, next_to = p.xy[k - 1], p.xy[k], false
      for _, n in ipairs(hx:neighbours(a[1], a[2])) do
        if n[1] == b[1] and n[2] == b[2] then next_to = true end
      end
      ok = ok and next_to and not hx:is_blocked(b[1], b[2])
      cost = cost + hx:get_cost(b[1], b[2])
    end
    hexes.ok = ok and math.abs(cost - p.cost) < 1e-9 -- 1 x the entered cell's cost
  end
end

local function hex_load(seed)
  hexes.seed = seed or 11
  local r = love.math.newRandomGenerator(hexes.seed)
  local hx = astar.hex(HEX_W, HEX_H, { layout = "odd_r", cell_size = HEX_SIZE })
  for y = 1, HEX_H do
    for x = 1, HEX_W do
      local v = r:random()
      if v < 0.22 then hx:set_blocked(x, y, true) elseif v < 0.40 then hx:set_cost(x, y, 3) end
    end
  end
  hexes.start, hexes.goal = { 2, 2 }, { HEX_W - 1, HEX_H - 1 }
  for _, c in ipairs({ hexes.start, hexes.goal }) do
    hx:set_blocked(c[1], c[2], false)
    for _, n in ipairs(hx:neighbours(c[1], c[2])) do hx:set_blocked(n[1], n[2], false) end
  end
  hexes.grid = hx
  hex_search()
end

local function hex_click(px, py, button)
  local x, y = hexes.grid:to_cell(px, py)
  if not x or hexes.grid:is_blocked(x, y) then return end
  if button == 1 then hexes.goal = { x, y } elseif button == 2 then hexes.start = { x, y } end
  hex_search()
end

--------------------------------------------------------------------------------
-- LÖVE callbacks
--------------------------------------------------------------------------------

-- --frames N [--screenshot PATH] [--scene 1|2|3]: LÖVE 11 passes the game's
-- own arguments to love.load.  Without --scene a headless run shows scene 2
-- and then scene 3 from a third to half of its frames (the level waits
-- meanwhile).
local function parse_args(args)
  for _, a in ipairs(args) do
    if a == "--frames" then exit_on_error = true end
  end
  local opts, i = {}, 1
  while args[i] do
    local a, v = args[i], args[i + 1]
    if a == "--frames" then
      opts.frames = tonumber(v)
      assert(opts.frames and opts.frames >= 1 and opts.frames % 1 == 0, "--frames needs a positive integer")
    elseif a == "--screenshot" then
      assert(v, "--screenshot needs a path")
      opts.screenshot = v
    elseif a == "--heuristic" then    -- the monster's first heuristic (H cycles it)
      for k, name in ipairs(HEURISTICS) do
        if name == v then monster.h = k end
      end
      assert(HEURISTICS[monster.h] == v, "--heuristic needs one of " .. table.concat(HEURISTICS, ", "))
    elseif a == "--scene" then        -- start in this scene (headless: stay in it)
      assert(v == "1" or v == "2" or v == "3", "--scene needs 1, 2 or 3")
      opts.scene = tonumber(v)
    else
      error("unknown argument " .. tostring(a)
        .. " (usage: love examples/love [--heuristic NAME] [--scene 1|2|3] [--frames N [--screenshot PATH]])")
    end
    i = i + 2
  end
  if opts.screenshot and not opts.frames then error("--screenshot needs --frames") end
  scene = opts.scene or 1
  opts.cycle = not opts.scene
  return opts.frames and opts or nil
end

function love.load(args)
  headless = parse_args(args or {})
  local root = repo_root()
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
  astar = require("astar")
  PURE = astar.backend == "lua"
  if PURE then
    scene = 1
    if headless then headless.cycle = false end
  end

  -- P and M are open cells; the level string also says where they are.
  -- cell_size = CELL: grid:to_world gives pixels, grid:to_cell reads them
  grid = astar.grid_from_string(LEVEL, { P = true, M = true }, { cell_size = CELL })
  W, H = grid:size()
  local y = 0
  for line in LEVEL:gmatch("[^\n]+") do
    y = y + 1
    for x = 1, #line do
      local ch = line:sub(x, x)
      if ch == "P" then player.x, player.y = x, y end
      if ch == "M" then lairs[#lairs + 1] = { x, y } end
    end
  end

  -- Agents may only aim at cells they can reach: one distance field from the
  -- player's start tells which (math.huge where nothing gets through).
  local reach = grid:distances({ { player.x, player.y } })
  for cy = 1, H do
    for cx = 1, W do
      if not grid:is_blocked(cx, cy) and reach:get(cx, cy) < math.huge then
        open_cells[#open_cells + 1] = { cx, cy }
      end
    end
  end

  rng = love.math.newRandomGenerator(2024)
  -- locate: the cell a walker stands on (a cut path is searched again from there)
  planner = astar.planner(grid, { locate = function(w) return w.x, w.y end })
  for k = 1, AGENT_COUNT do
    local c = open_cells[rng:random(#open_cells)]
    local a = { colour = AGENT_COLOURS[k], speed = AGENT_SPEED * CELL }
    place(a, c[1], c[2])
    agents[k] = a
    new_target(a)
  end
  look()
  place(monster, lairs[1][1], lairs[1][2])
  place(player, player.x, player.y)
  place(siege, SIEGE_STOPS[#SIEGE_STOPS][1], SIEGE_STOPS[#SIEGE_STOPS][2])
  -- how much farther the wide road is than the one a small unit takes
  local goal = SIEGE_STOPS[1]
  siege.narrow = grid:find_path(siege.x, siege.y, goal[1], goal[2]).length
  siege.wide = 0
  if not PURE then
    siege.wide = grid:find_path(siege.x, siege.y, goal[1], goal[2], { size = SIEGE_SIZE }).length
    lab_load()
    hex_load()
  end
  if headless then love.window.setVSync(0) end -- as fast as it goes
  love.keyboard.setKeyRepeat(false)
end

function love.update(dt)
  if headless then
    if stats.frames >= headless.frames then
      -- the screenshot is taken at the end of the last frame's draw; if its
      -- callback never comes, fail instead of running forever
      if stats.frames > headless.frames + 120 then error("the screenshot was never delivered") end
      stats.frames = stats.frames + 1
      return
    end
    dt = FIXED_DT                      -- deterministic: the real clock is ignored
  else
    dt = math.min(dt, 1 / 20)          -- a stall (window dragged) must not teleport anyone
  end
  stats.frames = stats.frames + 1
  message_time = message_time - dt
  if headless and headless.cycle then   -- the headless run shows scenes 2 and 3 a while
    local f, n = stats.frames, headless.frames
    scene = (f > n / 3 and f <= 5 * n / 12) and 2 or (f > 5 * n / 12 and f <= n / 2) and 3 or 1
  end
  if scene ~= 1 then                   -- the level waits while another scene is shown
    stats["scene" .. scene .. "_frames"] = stats["scene" .. scene .. "_frames"] + 1
    return
  end
  update_player(dt)
  update_gate(dt)
  plan()                               -- after the frame's edit: cut paths are known before anyone moves
  update_agents(dt)
  update_siege(dt)
  update_monster(dt)
  for _, w in ipairs(agents) do
    if w.hold then stats.held = stats.held + 1 end
  end
end

function love.mousepressed(x, y, button)
  if scene == 2 then lab_click(x, y, button) elseif scene == 3 then hex_click(x, y, button) end
end

local ARROWS = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }

function love.keypressed(key)
  if (key == "tab" or key == "1" or key == "2" or key == "3") and not PURE then
    scene = key == "tab" and scene % 3 + 1 or tonumber(key)
  elseif scene == 2 and key == "space" then
    lab_load(lab.seed + 1)
  elseif scene == 3 and key == "space" then
    hex_load(hexes.seed + 1)
  elseif key == "escape" then
    love.event.quit(0)
  elseif key == "h" then
    monster.h = monster.h % #HEURISTICS + 1
    monster.timer = 0                  -- search again with it at the next cell
  elseif key == "f" then
    show_fill = not show_fill
  elseif key == "r" then
    scatter()
  elseif ARROWS[key] and scene == 1 then
    move_player(ARROWS[key][1], ARROWS[key][2]) -- a tap moves at once ...
    player.cooldown = 2 * PLAYER_STEP  -- ... holding repeats after a pause
  end
end

--------------------------------------------------------------------------------
-- Drawing
--------------------------------------------------------------------------------

local lg = love.graphics

local function draw_map()
  for y = 1, H do
    for x = 1, W do
      if grid:is_blocked(x, y) then
        lg.setColor(0.28, 0.29, 0.35)
      elseif player.lit[(y - 1) * W + x] then
        lg.setColor(0.42, 0.39, 0.30)  -- in the player's light
      else
        lg.setColor(0.10, 0.11, 0.14)  -- dark: where the monster likes to be
      end
      lg.rectangle("fill", (x - 1) * CELL, (y - 1) * CELL, CELL, CELL)
    end
  end
  -- the gate: a red bar when shut, a faint outline when open
  local gx, gy = (GATE[1] - 1) * CELL, (GATE[2] - 1) * CELL
  if gate.shut then
    lg.setColor(0.85, 0.30, 0.25)
    lg.rectangle("fill", gx + 2, gy + 2, CELL - 4, CELL - 4)
  else
    lg.setColor(0.85, 0.30, 0.25, 0.6)
    lg.rectangle("line", gx + 1, gy + 1, CELL - 2, CELL - 2)
  end
  -- faint cell lines on the floor only
  lg.setColor(1, 1, 1, 0.04)
  for x = 1, W - 1 do lg.line(x * CELL, 0, x * CELL, H * CELL) end
  for y = 1, H - 1 do lg.line(0, y * CELL, W * CELL, y * CELL) end
end

-- The monster's last fill, light (expanded early) to strong (late).
local function draw_fill()
  local fill = monster.fill
  if not (show_fill and fill) then return end
  local n = #fill
  for k, id in ipairs(fill) do
    local x, y = (id - 1) % W + 1, math.floor((id - 1) / W) + 1
    lg.setColor(0.70, 0.35, 1.00, 0.05 + 0.30 * k / n)
    lg.rectangle("fill", (x - 1) * CELL, (y - 1) * CELL, CELL, CELL)
  end
end

local function draw_agents()
  lg.setLineWidth(1.5)
  for _, a in ipairs(agents) do
    local r, g, b = a.colour[1], a.colour[2], a.colour[3]
    local px, py = a.px, a.py
    if not at_end(a) then              -- the rest of the smoothed route it walks
      local pts = route_ahead(a)
      lg.setColor(r, g, b, 0.45)
      if #pts >= 4 then lg.line(pts) end
    end
    lg.setColor(r, g, b, 0.8)          -- where it is going
    lg.rectangle("line", (a.gx - 1) * CELL + 5, (a.gy - 1) * CELL + 5, CELL - 10, CELL - 10)
    lg.setColor(r, g, b)
    if a.thinking then                 -- still thinking: a hollow ring
      lg.circle("line", px, py, CELL * 0.32)
    else
      lg.circle("fill", px, py, CELL * 0.32)
    end
  end
end

local function draw_monster()
  local mx, my = monster.px, monster.py
  if monster.cells and not at_end(monster) then
    -- the cell path its search found, dashed, from the cell it is on ...
    local from = 1
    for k, c in ipairs(monster.cells) do
      if c[1] == monster.x and c[2] == monster.y then from = k; break end
    end
    lg.setColor(0.95, 0.25, 0.25, 0.5)
    lg.setLineWidth(1)
    for k = from, #monster.cells - 1, 2 do
      local x0, y0 = grid:to_world(monster.cells[k][1], monster.cells[k][2])
      local x1, y1 = grid:to_world(monster.cells[k + 1][1], monster.cells[k + 1][2])
      lg.line(x0, y0, x1, y1)
    end
    -- ... and the smoothed route it walks: straight lines that stay as dark
    -- as the cells (the penalty prices every segment, so no line cuts back
    -- into the light)
    local pts = route_ahead(monster)
    lg.setColor(1, 0.35, 0.3, 0.9)
    lg.setLineWidth(2)
    if #pts >= 4 then lg.line(pts) end
  end
  local cx, cy = monster.x, monster.y
  if player.lit[(cy - 1) * W + cx] then
    -- seen: bright, with a glow, the moment a player would scream
    lg.setColor(1, 0.15, 0.1, 0.30)
    lg.circle("fill", mx, my, CELL * 0.9)
    lg.setColor(1, 0.2, 0.15)
    lg.circle("fill", mx, my, CELL * 0.42)
  else
    -- unseen: a dim shape only the omniscient viewer of this demo can see
    lg.setColor(0.45, 0.08, 0.08)
    lg.circle("fill", mx, my, CELL * 0.42)
    lg.setColor(0.95, 0.25, 0.25)
    lg.setLineWidth(1.5)
    lg.circle("line", mx, my, CELL * 0.42)
  end
  lg.setColor(1, 0.9, 0.3)             -- two eyes either way
  lg.circle("fill", mx - 3, my - 2, 1.8)
  lg.circle("fill", mx + 3, my - 2, 1.8)

  local px, py = player.px, player.py
  lg.setColor(1, 1, 1)
  lg.circle("fill", px, py, CELL * 0.38)
  lg.setColor(0.2, 0.5, 1)
  lg.setLineWidth(2)
  lg.circle("line", px, py, CELL * 0.38)
end

-- The siege engine over its 2 x 2 block: its position is the centre of the
-- top-left cell, so the block is centred half a cell right and down.
local function draw_siege()
  if not at_end(siege) then
    local pts = route_ahead(siege)
    for k = 1, #pts do pts[k] = pts[k] + CELL / 2 end -- the block's centre
    lg.setColor(0.95, 0.70, 0.25, 0.55)
    lg.setLineWidth(3)
    if #pts >= 4 then lg.line(pts) end
  end
  local x, y, side = siege.px - CELL / 2, siege.py - CELL / 2, SIEGE_SIZE * CELL
  lg.setColor(0.50, 0.33, 0.15)
  lg.rectangle("fill", x + 2, y + 2, side - 4, side - 4, 4, 4)
  lg.setColor(0.95, 0.70, 0.25)
  lg.setLineWidth(2)
  lg.rectangle("line", x + 2, y + 2, side - 4, side - 4, 4, 4)
  lg.line(x + 8, y + 8, x + side - 8, y + side - 8) -- a cross-braced frame
  lg.line(x + side - 8, y + 8, x + 8, y + side - 8)
  for _, c in ipairs({ { 6, 6 }, { side - 6, 6 }, { 6, side - 6 }, { side - 6, side - 6 } }) do
    lg.circle("fill", x + c[1], y + c[2], 4)            -- wheels
  end
end

-- Scene 2: the field, the grid path (thin, through every cell) and the
-- any-angle path (thick, through its turning points), with their lengths.
local function draw_lab()
  local g = lab.grid
  for y = 1, LAB_H do
    for x = 1, LAB_W do
      if g:is_blocked(x, y) then lg.setColor(0.28, 0.29, 0.35) else lg.setColor(0.12, 0.13, 0.16) end
      lg.rectangle("fill", (x - 1) * CELL, (y - 1) * CELL, CELL, CELL)
    end
  end
  local function polyline(cells)
    local pts = {}
    for _, c in ipairs(cells) do
      local wx, wy = g:to_world(c[1], c[2])
      pts[#pts + 1], pts[#pts + 2] = wx, wy
    end
    if #pts >= 4 then lg.line(pts) end
    return pts
  end
  if lab.cells then
    lg.setColor(0.55, 0.75, 1.00, 0.8)
    lg.setLineWidth(1.5)
    polyline(lab.cells.xy)
  end
  if lab.any then
    lg.setColor(1.00, 0.75, 0.25)
    lg.setLineWidth(3)
    local pts = polyline(lab.any.points)
    for k = 1, #pts, 2 do lg.circle("fill", pts[k], pts[k + 1], 4) end
  end
  for _, e in ipairs({ { lab.start, { 0.4, 1, 0.5 } }, { lab.goal, { 1, 0.4, 0.4 } } }) do
    local wx, wy = g:to_world(e[1][1], e[1][2])
    lg.setColor(e[2])
    lg.circle("fill", wx, wy, CELL * 0.4)
  end
  local y0 = LAB_H * CELL
  lg.setColor(0.06, 0.06, 0.08)
  lg.rectangle("fill", 0, y0, LAB_W * CELL, lg.getHeight() - y0)
  lg.setColor(0.55, 0.75, 1.00)
  lg.print(lab.cells and ("grid path (blue): %d cells, length %.2f, %d expansions")
    :format(#lab.cells.xy, lab.cells.length, lab.cells.expanded) or "no path", 8, y0 + 5)
  lg.setColor(1.00, 0.75, 0.25)
  local any = lab.any
  if any then
    lg.print(("any-angle path (any_angle = true, orange): %d turning points, length %.2f"
      .. " (%.1f%% shorter), %d expansions"):format(#any.points, any.length,
      100 * (1 - any.length / lab.cells.length), any.expanded), 8, y0 + 23)
  end
  lg.setColor(0.55, 0.57, 0.65)
  lg.print(("field %d.  left click: goal    right click: start    Space: another field    Tab: hexes    Esc: quit")
    :format(lab.seed), 8, y0 + 59)
end

-- Scene 3: the hexagons (rock, marsh, open), the path through their centres.
local HEX_CORNERS = {}
for i = 0, 5 do                          -- pointy-top: corners at -30, 30, 90 ... degrees
  local a = math.rad(60 * i - 30)
  HEX_CORNERS[#HEX_CORNERS + 1] = HEX_SIZE * math.cos(a)
  HEX_CORNERS[#HEX_CORNERS + 1] = HEX_SIZE * math.sin(a)
end

local function draw_hexes()
  local hx = hexes.grid
  local poly = {}
  for y = 1, HEX_H do
    for x = 1, HEX_W do
      local cx, cy = hx:to_world(x, y)
      for k = 1, 12, 2 do poly[k], poly[k + 1] = cx + HEX_CORNERS[k], cy + HEX_CORNERS[k + 1] end
      if hx:is_blocked(x, y) then
        lg.setColor(0.28, 0.29, 0.35)
      elseif hx:get_cost(x, y) > 1 then
        lg.setColor(0.16, 0.24, 0.17)    -- marsh: cost 3
      else
        lg.setColor(0.12, 0.13, 0.16)
      end
      lg.polygon("fill", poly)
      lg.setColor(1, 1, 1, 0.06)
      lg.polygon("line", poly)
    end
  end
  local p = hexes.path
  if p then
    local pts = {}
    for _, c in ipairs(p.xy) do
      local wx, wy = hx:to_world(c[1], c[2])
      pts[#pts + 1], pts[#pts + 2] = wx, wy
    end
    lg.setColor(1.00, 0.75, 0.25)
    lg.setLineWidth(3)
    if #pts >= 4 then lg.line(pts) end
  end
  for _, e in ipairs({ { hexes.start, { 0.4, 1, 0.5 } }, { hexes.goal, { 1, 0.4, 0.4 } } }) do
    local wx, wy = hx:to_world(e[1][1], e[1][2])
    lg.setColor(e[2])
    lg.circle("fill", wx, wy, HEX_SIZE * 0.6)
  end
  local y0 = H * CELL
  lg.setColor(0.06, 0.06, 0.08)
  lg.rectangle("fill", 0, y0, lg.getWidth(), lg.getHeight() - y0)
  lg.setColor(1.00, 0.75, 0.25)
  lg.print(p and ("hex path (astar.hex, layout odd_r): %d steps, cost %g (marsh costs 3), %d expansions")
    :format(#p.xy - 1, p.cost, p.expanded) or "no path", 8, y0 + 5)
  lg.setColor(0.55, 0.75, 0.55)
  lg.print("grey: rock (blocked)    green: marsh (set_cost 3)    six neighbours, the hex distance as heuristic",
    8, y0 + 23)
  lg.setColor(0.55, 0.57, 0.65)
  lg.print(("field %d.  left click: goal    right click: start    Space: another field    Tab: the level    Esc: quit")
    :format(hexes.seed), 8, y0 + 59)
end

local function draw_status()
  local y0 = H * CELL
  lg.setColor(0.06, 0.06, 0.08)
  lg.rectangle("fill", 0, y0, W * CELL, lg.getHeight() - y0)
  -- the frame's budget as a gauge: how much of it the agents' queries used
  lg.setColor(0.25, 0.27, 0.33)
  lg.rectangle("fill", 8, y0 + 8, 100, 10)
  lg.setColor(0.35, 0.75, 1.00)
  lg.rectangle("fill", 8, y0 + 8, 100 * stats.used / BUDGET, 10)
  lg.setColor(0.85, 0.88, 0.95)
  lg.print(("planner: %2d / %d expansions this frame, %d orders pending (of %d walkers); %d paths done")
    :format(stats.used, BUDGET, stats.in_flight, #agents + 1, stats.agent_paths), 116, y0 + 5)
  lg.setColor(0.95, 0.70, 0.25)
  if PURE then
    lg.print(("pure-Lua backend: cell paths (the siege engine and Tab's scenes need the native module)."
      .. "  Door: %g s, %d cut paths re-planned")
      :format(GATE_EVERY, stats.invalidated), 8, y0 + 77)
  else
    lg.print(("siege engine (size = 2): the wide road, %.1f cells where a small unit goes %.1f."
      .. "  The red door shuts every %g s: %d paths it cut were searched again")
      :format(siege.wide, siege.narrow, GATE_EVERY, stats.invalidated), 8, y0 + 77)
  end

  local h = HEURISTICS[monster.h]
  local cx, cy = monster.x, monster.y
  local route = monster.cells and ("route %d steps, cost %.1f, %d steps in sight"):format(
    #monster.cells - 1, monster.cost, monster.in_sight) or ("no route (" .. tostring(monster.why) .. ")")
  lg.setColor(1, 0.55, 0.55)
  lg.print(("monster [%s]: last search %d expansions, %s; %s; caught you %d times"):format(
    h, monster.by_h[h] or 0, route, player.lit[(cy - 1) * W + cx] and "YOU SEE IT" or "hidden",
    stats.caught), 8, y0 + 23)

  local by_h = {}
  for _, name in ipairs(HEURISTICS) do
    by_h[#by_h + 1] = ("%s%s %s"):format(name == h and "> " or "", name, monster.by_h[name] or "-")
  end
  lg.setColor(0.80, 0.65, 1.00)
  lg.print("purple: what its last search expanded.  By heuristic:  " .. table.concat(by_h, "   "), 8, y0 + 41)
  lg.setColor(0.55, 0.57, 0.65)
  lg.print("arrows: move    H: monster heuristic    F: fill    R: new agent destinations"
    .. "    Tab: any-angle, hexes    Esc: quit", 8, y0 + 59)

  if message and message_time > 0 then
    lg.setColor(0, 0, 0, 0.7)
    lg.rectangle("fill", 0, H * CELL / 2 - 20, W * CELL, 40)
    lg.setColor(1, 0.4, 0.4)
    lg.printf(message, 0, H * CELL / 2 - 7, W * CELL, "center")
  end
end

local function summary()
  return ("frames=%d agent_paths=%d monster_searches=%d expansions=%d (agents %d, monster %d)"
    .. " budget=%d/frame max_in_flight=%d caught=%d heuristic=%s backend=%s"):format(
    math.min(stats.frames, headless.frames), stats.agent_paths, stats.monster_searches,
    stats.agent_expansions + stats.monster_expansions, stats.agent_expansions,
    stats.monster_expansions, BUDGET, stats.max_in_flight, stats.caught, HEURISTICS[monster.h], astar.backend)
    -- every walker's position checked each frame (its block open), every
    -- segment it was given (line of sight for its size)
    .. ("\nwalk: checks=%d segments=%d bad=%d siege_paths=%d siege_bad=%d siege_wide=%.4f siege_narrow=%.4f")
    :format(stats.walk_checks, stats.segments, stats.walk_bad, stats.siege_paths, stats.siege_bad,
      siege.wide, siege.narrow)
    -- the gate: how often it moved, the paths the planner said it cut, the
    -- walker-frames spent waiting for their new path
    .. ("\ngate: toggles=%d waits=%d invalidated=%d held=%d"):format(stats.gate_toggles, stats.gate_waits,
      stats.invalidated, stats.held)
    .. ("\nscene2: frames=%d draws=%d points=%d length=%.4f grid_length=%.4f ok=%s"):format(
      stats.scene2_frames, stats.scene2_draws, lab.any and #lab.any.points or 0, lab.any and lab.any.length or 0,
      lab.cells and lab.cells.length or 0, tostring(lab.ok))
    .. ("\nscene3: frames=%d draws=%d steps=%d cost=%g ok=%s"):format(stats.scene3_frames,
      stats.scene3_draws, hexes.path and #hexes.path.xy - 1 or 0, hexes.path and hexes.path.cost or 0,
      tostring(hexes.ok))
end

-- Headless end: LÖVE hands the last frame over after it is presented.
-- captureScreenshot(filename) could only write inside LÖVE's save
-- directory, so encode the PNG here and write it where we were told.
local function finish(image)
  if headless.screenshot then
    local png = image:encode("png"):getString()
    local f = assert(io.open(headless.screenshot, "wb"))
    assert(f:write(png))
    assert(f:close())
  end
  print(summary())
  io.stdout:flush()
  love.event.quit(0)
end

function love.draw()
  lg.clear(0.06, 0.06, 0.08)
  if scene ~= 1 and headless then stats["scene" .. scene .. "_draws"] = stats["scene" .. scene .. "_draws"] + 1 end
  if scene == 2 then
    draw_lab()
  elseif scene == 3 then
    draw_hexes()
  else
    draw_map()
    draw_fill()
    draw_agents()
    if not PURE then draw_siege() end
    draw_monster()
    draw_status()
  end
  if headless and stats.frames == headless.frames and not headless.capturing then
    headless.capturing = true
    lg.captureScreenshot(finish)
  end
end

-- In a headless run an error must end the process with a failure instead
-- of showing LÖVE's error screen forever.
local default_errorhandler = love.errorhandler or love.errhand
function love.errorhandler(msg)
  if exit_on_error then
    io.stderr:write("examples/love: " .. debug.traceback(tostring(msg), 2) .. "\n")
    io.stderr:flush()
    os.exit(1)
  end
  return default_errorhandler(msg)
end
