-- astar in LÖVE 11: agents wandering on a shared, time-sliced search budget,
-- and the Amnesia-style monster that stalks the player out of sight.
--
--   make build/luajit/astar/core.so         (LÖVE runs LuaJIT: the module built for it)
--   love examples/love                      play: arrows, H, F, R, Esc
--   xvfb-run -a love examples/love --frames 240 --screenshot /tmp/astar.png
--     headless: N frames with a fixed dt, a PNG of the last one, a summary
--     line on stdout, exit status 0 (1 on any error)
--   --heuristic NAME                        the monster's first heuristic
--
-- What it shows:
--   * 8 agents walk between random cells.  Each path is a grid:query stepped a
--     little per frame; all queries share BUDGET expansions per frame, so the
--     frame time stays bounded however many agents are thinking at once.
--   * The monster re-paths every REPATH_EVERY seconds to a cell next to the
--     player with penalty = grid:visible_from(player): cells the player can
--     see cost DANGER more to enter, so it creeps round behind the walls.
--     Its last search's fill (visited = true) is the purple overlay; H cycles
--     its heuristic, and the status bar shows what each one expanded.

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
#.......#..............#..#............#
#.......#.......P......#..#........#...#
#.......#......##......#..#........#...#
#.......#..............#..#........#...#
#.......#..............#..#####.####...#
####.####..............#...............#
#.......######.#########...............#
#......................................#
#.......#..........#.......#...........#
#.......#..........#.......#...........#
#.M.....#..........#.......#...........#
########################################
]]

local CELL = 20                 -- pixels per cell
local AGENT_COUNT = 8
local BUDGET = 32               -- expansions per frame, shared by every agent query
                                -- (small on purpose: a path takes several frames)
local AGENT_SPEED = 7           -- cells per second
local MONSTER_SPEED = 3.5
local PLAYER_STEP = 0.12        -- seconds between steps while an arrow is held
local REPATH_EVERY = 0.5        -- seconds between monster searches
local SIGHT = 12                -- it is dark: the player sees this many cells far
local DANGER = 12               -- penalty_scale: entering a cell in sight costs 12 more
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
local monster = { h = 1, timer = 0, by_h = {} }
local agents = {}
local headless                  -- { frames =, screenshot = } with --frames
local exit_on_error = false
local show_fill = true
local message, message_time = nil, 0
local stats = {
  frames = 0, agent_paths = 0, agent_expansions = 0, monster_searches = 0,
  monster_expansions = 0, in_flight = 0, max_in_flight = 0, used = 0, caught = 0,
}

--------------------------------------------------------------------------------
-- Walking along a path
--------------------------------------------------------------------------------

-- A walker stands on cell (x, y), or is the fraction t of the way from
-- path[i] to path[i + 1].  Re-pathing happens only while standing on a cell,
-- so a new path always starts where the walker is.
local function advance(w, dist, stop_here)
  while w.path and w.i < #w.path do
    local a, b = w.path[w.i], w.path[w.i + 1]
    local len = (a[1] ~= b[1] and a[2] ~= b[2]) and astar.DIAGONAL or 1
    local left = (1 - w.t) * len
    if dist < left then
      w.t = w.t + dist / len
      return
    end
    dist = dist - left
    w.i, w.t, w.x, w.y = w.i + 1, 0, b[1], b[2]
    if stop_here and stop_here() then return end
  end
end

local function at_end(w) return not w.path or w.i >= #w.path end

-- Pixel centre of a walker (between two cells while it moves).
local function centre(w)
  local x, y = w.x, w.y
  if w.path and w.i < #w.path and w.t > 0 then
    local a, b = w.path[w.i], w.path[w.i + 1]
    x, y = a[1] + (b[1] - a[1]) * w.t, a[2] + (b[2] - a[2]) * w.t
  end
  return (x - 0.5) * CELL, (y - 0.5) * CELL
end

--------------------------------------------------------------------------------
-- Agents: time-sliced queries on a shared budget
--------------------------------------------------------------------------------

-- The smoothed route of a path (smooth = true: straight lines that cost no
-- more than the cells they replace) as { k = index in path.xy, x, y }: a
-- walker on cell i of its path draws the lines through the turns after i.
local function turns_of(p)
  local at, turns = {}, {}
  for k, c in ipairs(p.xy) do at[c[2] * 65536 + c[1]] = at[c[2] * 65536 + c[1]] or k end
  for _, q in ipairs(p.points) do
    turns[#turns + 1] = { k = at[q[2] * 65536 + q[1]], q[1], q[2] }
  end
  return turns
end

-- The points of a walker's smoothed route still ahead of it, in pixels,
-- from where it is.
local function route_ahead(w)
  local px, py = centre(w)
  local pts = { px, py }
  for _, q in ipairs(w.turns or {}) do
    if q.k > w.i then
      pts[#pts + 1] = (q[1] - 0.5) * CELL
      pts[#pts + 1] = (q[2] - 0.5) * CELL
    end
  end
  return pts
end

local function new_target(a)
  local c
  repeat c = open_cells[rng:random(#open_cells)] until c[1] ~= a.x or c[2] ~= a.y
  a.gx, a.gy = c[1], c[2]
  -- A query owns its search state, so eight of them can be alive on the same
  -- grid; nothing is expanded until it is stepped.
  a.query = grid:query(a.x, a.y, a.gx, a.gy, { smooth = true })
  a.spent = 0
  a.path = nil
end

-- Steps every query in flight.  Each gets an equal share of what is left of
-- the frame's budget, so one that finishes early hands its unused
-- expansions to the next; the first served rotates so no agent always waits.
local function step_queries()
  local flying = {}
  for _, a in ipairs(agents) do
    if a.query then flying[#flying + 1] = a end
  end
  local n, left = #flying, BUDGET
  stats.in_flight = n
  if n > stats.max_in_flight then stats.max_in_flight = n end
  for k = 1, n do
    if left <= 0 then break end        -- more queries than expansions: the rest wait
    local a = flying[(stats.frames + k) % n + 1]
    local status = a.query:step(math.ceil(left / (n - k + 1)))
    local p, _, st = a.query:result()  -- nil, "searching", stats while it runs
    local total = (p or st).expanded
    left, a.spent = left - (total - a.spent), total
    if status == "found" then
      a.path, a.i, a.t = p.xy, 1, 0
      a.turns = turns_of(p)           -- the smoothed route, drawn ahead of it
      a.query:cancel()                 -- frees its search memory now, not at the next GC
      a.query = nil
      a.wait = 0.1 + rng:random() * 0.4 -- a moment at each destination
      stats.agent_paths = stats.agent_paths + 1
    elseif status ~= "searching" then
      new_target(a)                    -- cannot happen on this level, but never get stuck
    end
  end
  stats.used = BUDGET - left
  stats.agent_expansions = stats.agent_expansions + stats.used
end

local function update_agents(dt)
  for _, a in ipairs(agents) do
    if a.path then
      advance(a, AGENT_SPEED * dt)
      if at_end(a) then
        a.wait = a.wait - dt
        if a.wait <= 0 then new_target(a) end
      end
    end
  end
  step_queries()
end

-- R: new destinations for everyone.  Queries in flight are cancelled (their
-- memory is freed at once); walkers finish the step they are on first.
local function scatter()
  for _, a in ipairs(agents) do
    if a.query then
      a.query:cancel()
      new_target(a)
    elseif a.path then
      a.path = { a.path[a.i], a.path[math.min(a.i + 1, #a.path)] }
      a.i, a.wait, a.turns = 1, 0, nil
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
    player.x, player.y = x + dx, y + dy
    look()
  end
end

-- The monster searches to the player's own cell and walks all but the last
-- step: A* picks the best cell next to the player itself.  Cells in the
-- player's sight cost DANGER more, so the route stays in the dark as long
-- as the detour is worth it.
local function search_monster()
  monster.timer = REPATH_EVERY
  local h = HEURISTICS[monster.h]
  local p, why, st = grid:find_path(monster.x, monster.y, player.x, player.y, {
    heuristic = h, penalty = player.danger, penalty_scale = DANGER, visited = true,
    smooth = true,
  })
  local r = p or st
  stats.monster_searches = stats.monster_searches + 1
  stats.monster_expansions = stats.monster_expansions + r.expanded
  monster.by_h[h] = r.expanded
  monster.fill = r.visited
  monster.cost = p and p.cost
  monster.why = why
  if p then
    local route, in_sight = {}, 0
    for k = 1, #p.xy - 1 do
      local c = p.xy[k]
      route[k] = c
      if k > 1 and player.lit[(c[2] - 1) * W + c[1]] then in_sight = in_sight + 1 end
    end
    monster.path, monster.i, monster.t, monster.in_sight = route, 1, 0, in_sight
    monster.turns = turns_of(p)
  else
    monster.path = nil
  end
end

local function monster_cell()
  if monster.path and monster.i < #monster.path and monster.t >= 0.5 then
    local c = monster.path[monster.i + 1]
    return c[1], c[2]
  end
  return monster.x, monster.y
end

local function spawn_monster()
  local best, far = lairs[1], -1
  for _, l in ipairs(lairs) do
    local d = (l[1] - player.x) ^ 2 + (l[2] - player.y) ^ 2
    if d > far then best, far = l, d end
  end
  monster.x, monster.y, monster.path, monster.t = best[1], best[2], nil, 0
  monster.timer = 0
end

local function update_monster(dt)
  monster.timer = monster.timer - dt
  if monster.timer <= 0 and monster.t == 0 then search_monster() end
  -- walk, but stop on the next cell when a search is due
  advance(monster, MONSTER_SPEED * dt, function() return monster.timer <= 0 end)
  if monster.t == 0 and math.abs(monster.x - player.x) <= 1 and math.abs(monster.y - player.y) <= 1 then
    stats.caught = stats.caught + 1
    message, message_time = "The monster got you.  It slinks back to its lair...", 2
    spawn_monster()
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
-- LÖVE callbacks
--------------------------------------------------------------------------------

-- --frames N [--screenshot PATH]: LÖVE 11 passes the game's own arguments
-- to love.load.
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
    else
      error("unknown argument " .. tostring(a)
        .. " (usage: love examples/love [--heuristic NAME] [--frames N [--screenshot PATH]])")
    end
    i = i + 2
  end
  if opts.screenshot and not opts.frames then error("--screenshot needs --frames") end
  return opts.frames and opts or nil
end

function love.load(args)
  headless = parse_args(args or {})
  local root = repo_root()
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
  astar = require("astar")

  -- P and M are open cells; the level string also says where they are.
  grid = astar.grid_from_string(LEVEL, { P = true, M = true })
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
  for k = 1, AGENT_COUNT do
    local c = open_cells[rng:random(#open_cells)]
    local a = { x = c[1], y = c[2], t = 0, colour = AGENT_COLOURS[k] }
    agents[k] = a
    new_target(a)
  end
  look()
  monster.x, monster.y, monster.t = lairs[1][1], lairs[1][2], 0
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
  update_player(dt)
  update_agents(dt)
  update_monster(dt)
end

local ARROWS = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }

function love.keypressed(key)
  if key == "escape" then
    love.event.quit(0)
  elseif key == "h" then
    monster.h = monster.h % #HEURISTICS + 1
    monster.timer = 0                  -- search again with it at the next cell
  elseif key == "f" then
    show_fill = not show_fill
  elseif key == "r" then
    scatter()
  elseif ARROWS[key] then
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
    local px, py = centre(a)
    if a.path and not at_end(a) then   -- the rest of its route, smoothed
      local pts = route_ahead(a)
      lg.setColor(r, g, b, 0.45)
      if #pts >= 4 then lg.line(pts) end
    end
    lg.setColor(r, g, b, 0.8)          -- where it is going
    lg.rectangle("line", (a.gx - 1) * CELL + 5, (a.gy - 1) * CELL + 5, CELL - 10, CELL - 10)
    lg.setColor(r, g, b)
    if a.query then                    -- still thinking: a hollow ring
      lg.circle("line", px, py, CELL * 0.32)
    else
      lg.circle("fill", px, py, CELL * 0.32)
    end
  end
end

local function draw_monster()
  local mx, my = centre(monster)
  if monster.path then                 -- its planned route, dashed
    lg.setColor(0.95, 0.25, 0.25, 0.85)
    lg.setLineWidth(2)
    local x0, y0 = mx, my
    for k = monster.i + 1, #monster.path do
      local x1, y1 = (monster.path[k][1] - 0.5) * CELL, (monster.path[k][2] - 0.5) * CELL
      if k % 2 == 0 then lg.line(x0, y0, x1, y1) end
      x0, y0 = x1, y1
    end
    -- and smoothed: straight lines that stay as dark as the cells (the
    -- penalty prices every segment, so no line cuts back into the light)
    local pts = route_ahead(monster)
    lg.setColor(1, 0.55, 0.5, 0.6)
    lg.setLineWidth(1)
    if #pts >= 4 then lg.line(pts) end
  end
  local cx, cy = monster_cell()
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

  local px, py = centre(player)
  lg.setColor(1, 1, 1)
  lg.circle("fill", px, py, CELL * 0.38)
  lg.setColor(0.2, 0.5, 1)
  lg.setLineWidth(2)
  lg.circle("line", px, py, CELL * 0.38)
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
  lg.print(("%2d / %d expansions this frame, shared by %d queries in flight (of %d agents); %d paths done")
    :format(stats.used, BUDGET, stats.in_flight, #agents, stats.agent_paths), 116, y0 + 5)

  local h = HEURISTICS[monster.h]
  local cx, cy = monster_cell()
  local route = monster.path and ("route %d steps, cost %.1f, %d steps in sight"):format(
    #monster.path - 1, monster.cost, monster.in_sight) or ("no route (" .. tostring(monster.why) .. ")")
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
  lg.print("arrows: move    H: monster heuristic    F: show fill    R: new agent destinations    Esc: quit",
    8, y0 + 59)

  if message and message_time > 0 then
    lg.setColor(0, 0, 0, 0.7)
    lg.rectangle("fill", 0, H * CELL / 2 - 20, W * CELL, 40)
    lg.setColor(1, 0.4, 0.4)
    lg.printf(message, 0, H * CELL / 2 - 7, W * CELL, "center")
  end
end

local function summary()
  return ("frames=%d agent_paths=%d monster_searches=%d expansions=%d (agents %d, monster %d)"
    .. " budget=%d/frame max_in_flight=%d caught=%d heuristic=%s"):format(
    math.min(stats.frames, headless.frames), stats.agent_paths, stats.monster_searches,
    stats.agent_expansions + stats.monster_expansions, stats.agent_expansions,
    stats.monster_expansions, BUDGET, stats.max_in_flight, stats.caught, HEURISTICS[monster.h])
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
  draw_map()
  draw_fill()
  draw_agents()
  draw_monster()
  draw_status()
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
