-- The Amnesia monster (from the "A* - Part 1" lecture): it must reach a spot next to the player
-- while staying out of the player's line of sight wherever it can, so the
-- player hears it prowl behind the walls instead of watching it walk up.
--
-- Three ways to make a search danger-aware, compared with the plain path:
--   1. a Lua heuristic built on grid:line_of_sight (the lecture's approach: an
--      inadmissible heuristic that makes visible cells look far away).  It
--      changes only the order of the search: the route changes only among
--      equally short ones (with stop = "optimal" it costs exactly the plain
--      path; M.trials measures the others);
--   2. a Lua cost callback that makes visible cells expensive to enter;
--   3. the grid:visible_from field as a per-query penalty (stays in C): the
--      same costs as 2, the same paths, no Lua call per step.
-- Costs (2 and 3) are what change the route.  M.trials() measures all of
-- them over 40 trials on two levels: the README's stealth table.
-- Then the route the monster walks, in straight lines: in a courtyard
-- where the player's lantern lights a disc, the penalty search goes round
-- the light and smooth = true keeps every line out of it (a shortcut is
-- taken only if it costs no more under the penalty than the cells it
-- replaces), while string pulling by line of sight alone walks the monster
-- straight back into the light.
--
--   make demo     (or lua5.4 examples/amnesia_monster.lua with LUA_PATH/LUA_CPATH set)
--
-- Also a module: dofile("examples/amnesia_monster.lua").run() returns the
-- results without printing (the spec in spec/amnesia_spec.lua uses it).
local astar = require("astar")

-- The player (P) stands in a big hall beside a side door in its west wall.
-- The monster (M) prowls the cellar.  Crossing the hall is the short way, in
-- full view; the service corridor behind the west wall is longer and hidden
-- until the last step through the side door, right next to the player.
local LEVEL = [[
########################################
#.#....................................#
#.#....................................#
#......................................#
#.#....................................#
#.#......####..........................#
#.#......####..........................#
#.#....................................#
#.##################.....###############
#......................................#
#..............................#.......#
#......................................#
########################################
]]

-- The courtyard: open ground, two pillars, the player in the middle with
-- a lantern; the monster crosses from the west gate to the east gate.
local COURTYARD = [[
##############################
#............................#
#............................#
#.......##...................#
#............................#
#............................#
.............................#
#.............................
#............................#
#...................##.......#
#............................#
#............................#
##############################
]]
local LANTERN = { 15, 7, 4 }   -- x, y, radius
local GATES = { 1, 7, 30, 8 }  -- west gate x, y, east gate x, y

local PLAYER = { 4, 4 }        -- x, y
local MONSTER = { 33, 11 }
local GOAL = { 3, 4 }          -- the side door, next to the player
local DANGER = 8               -- how much a visible cell costs (or seems to)

local M = {}

-- The demo's own clock in microseconds (os.clock is CPU time, fine here).
local function timed(fn)
  local t0 = os.clock()
  local p, why = fn()
  return p, why, (os.clock() - t0) * 1e6
end

--- The lecture's heuristic for a player at (px, py): octile plus a
-- surcharge where the player would see the monster, inadmissible on purpose
-- so that visible cells look farther than they are.
function M.stealthy(grid, px, py)
  local K = astar.DIAGONAL - 1
  return function(x, y, tx, ty)
    local dx, dy = x - tx, y - ty
    if dx < 0 then dx = -dx end
    if dy < 0 then dy = -dy end
    local h = dx < dy and K * dx + dy or K * dy + dx
    if grid:line_of_sight(x, y, px, py) then h = h + DANGER end
    return h
  end
end

--- Runs the plain search and the three danger-aware ones; returns
-- { grid =, seen =, results = { { name =, path =, seen_cells =, us = } ... } }.
function M.run()
  local grid = astar.grid_from_string(LEVEL)
  local px, py = PLAYER[1], PLAYER[2]
  local seen = grid:visible_from(px, py)          -- 1 where the player sees
  local sx, sy, gx, gy = MONSTER[1], MONSTER[2], GOAL[1], GOAL[2]

  local ways = {
    { "plain octile", {} },
    -- A* asks the heuristic about every cell it reaches; jump point search
    -- (the default on this uniform grid) would ask only at jump points
    { "1. Lua heuristic + line_of_sight", { algorithm = "astar", heuristic = M.stealthy(grid, px, py) } },
    { "2. Lua cost callback", {
      cost = function(_, _, x2, y2, c)
        if seen:get(x2, y2) ~= 0 then return c * DANGER end
        return c
      end,
    } },
    { "3. visible_from field as penalty",
      { penalty = seen, penalty_scale = DANGER, smooth = true } },
  }

  local results = {}
  for i, w in ipairs(ways) do
    local path, why, us = timed(function() return grid:find_path(sx, sy, gx, gy, w[2]) end)
    assert(path, why)
    local visible, length = 0, 0
    for k, c in ipairs(path.xy) do
      if seen:get(c[1], c[2]) ~= 0 then visible = visible + 1 end
      if k > 1 then
        local p = path.xy[k - 1]
        length = length + ((p[1] ~= c[1] and p[2] ~= c[2]) and math.sqrt(2) or 1)
      end
    end
    results[i] = { name = w[1], path = path, seen_cells = visible, length = length, us = us }
  end
  -- the courtyard: the route the monster walks, smoothed under the light
  local yard = astar.grid_from_string(COURTYARD)
  local lit = yard:visible_from(LANTERN[1], LANTERN[2], LANTERN[3])
  local route = assert(yard:find_path(GATES[1], GATES[2], GATES[3], GATES[4],
    { penalty = lit, penalty_scale = DANGER, smooth = true }))
  local naive = M.sight_only(yard, route.xy)
  return {
    grid = grid, seen = seen, results = results,
    yard = yard, lit = lit, route = route,
    smoothed = { points = route.points, seen_cells = M.seen_along(lit, route.points) },
    sight_only = { points = naive, seen_cells = M.seen_along(lit, naive) },
  }
end

--- The do-it-yourself string pulling of the issue: from each point, the
-- farthest cell of the path in line of sight.  It knows nothing of the
-- danger the search avoided.
function M.sight_only(grid, xy)
  local pts, a = { xy[1] }, 1
  while a < #xy do
    local b = a + 1
    for j = a + 2, #xy do
      if grid:line_of_sight(xy[a][1], xy[a][2], xy[j][1], xy[j][2]) then b = j end
    end
    pts[#pts + 1] = xy[b]
    a = b
  end
  return pts
end

-- The cells a polyline through cell centres crosses (sampled finely).
local function cells_along(points)
  local out, seen = {}, {}
  for i = 2, #points do
    local a, b = points[i - 1], points[i]
    local n = 64 * math.max(math.abs(b[1] - a[1]), math.abs(b[2] - a[2]), 1)
    for k = 0, n - 1 do   -- midpoints: never exactly on a cell corner
      local x = math.floor(a[1] + (b[1] - a[1]) * (k + 0.5) / n + 0.5)
      local y = math.floor(a[2] + (b[2] - a[2]) * (k + 0.5) / n + 0.5)
      if not seen[y * 1000 + x] then
        seen[y * 1000 + x] = true
        out[#out + 1] = { x, y }
      end
    end
  end
  return out
end
M.cells_along = cells_along

--- How many cells the player sees along a polyline.
function M.seen_along(seen, points)
  local n = 0
  for _, c in ipairs(cells_along(points)) do
    if seen:get(c[1], c[2]) ~= 0 then n = n + 1 end
  end
  return n
end

-- ---------------------------------------------------------------------------
-- What each approach does, measured (the README's stealth table comes from
-- here; spec/amnesia_spec.lua checks that it still says what this measures).
-- ---------------------------------------------------------------------------

-- A deterministic generator of integers in 1..n, the same on every Lua (Park
-- and Miller's minimal standard generator: its products stay below 2^53,
-- exact in floats and integers alike).
local function lcg(seed)
  local s = seed % 2147483646 + 1
  return function(n)
    s = (s * 16807) % 2147483647
    return math.floor(s / 2147483647 * n) + 1
  end
end

--- A generated level of w x h cells: rooms 8 x 8 cells inside, walls one
-- cell thick, each wall with one or two doors, and pillars in some rooms.
function M.rooms(w, h, seed)
  local rnd = lcg(seed)
  local g = astar.grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if x % 9 == 1 or y % 9 == 1 or x == w or y == h then g:set_blocked(x, y, true) end
    end
  end
  for ry = 0, math.floor((h - 2) / 9) do
    for rx = 0, math.floor((w - 2) / 9) do
      local x0, y0 = rx * 9 + 1, ry * 9 + 1
      -- a door in the east wall and one in the south wall of each room
      for _ = 1, rnd(2) do
        local dy, dx = y0 + rnd(8), x0 + rnd(8)
        if x0 + 9 < w and dy < h then g:set_blocked(x0 + 9, dy, false) end
        if y0 + 9 < h and dx < w then g:set_blocked(dx, y0 + 9, false) end
      end
      if rnd(3) == 1 and x0 + 5 < w and y0 + 5 < h then -- a pillar
        g:set_blocked(x0 + 4, y0 + 4, true)
        g:set_blocked(x0 + 5, y0 + 4, true)
      end
    end
  end
  return g
end

-- The approaches: name, options (given the grid, the player and the field of
-- what the player sees), and what it changes.
local function approaches(grid, px, py, seen)
  local stealthy = M.stealthy(grid, px, py)
  return {
    { "plain (A*, octile)", { algorithm = "astar" } },
    { "Lua heuristic, stop = \"expand\"", { algorithm = "astar", heuristic = stealthy } },
    { "Lua heuristic, stop = \"first_hit\"",
      { algorithm = "astar", heuristic = stealthy, stop = "first_hit" } },
    { "Lua heuristic, stop = \"optimal\"",
      { algorithm = "astar", heuristic = stealthy, stop = "optimal" } },
    { "Lua cost callback", { cost = function(_, _, x2, y2, c)
      if seen:get(x2, y2) ~= 0 then return c + DANGER end
      return c
    end } },
    { "penalty field", { penalty = seen, penalty_scale = DANGER } },
  }
end

-- The levels of the trials: the demo's hall, and a generated one.
M.TRIAL_LEVELS = {
  { name = "the demo's hall (40 x 13)", make = function() return astar.grid_from_string(LEVEL) end },
  { name = "generated rooms (64 x 46)", make = function() return M.rooms(64, 46, 7) end },
}
M.TRIALS_PER_LEVEL = 20

--- Runs the trials: on each level, TRIALS_PER_LEVEL pairs of a player and a
-- monster (open cells, drawn by lcg, the monster at least 10 cells away and
-- able to reach the player); each approach searches from the monster to the
-- player, with what the player sees (visible_from) less the player's cell
-- and its neighbours (always in sight: only what can be avoided counts).
-- Returns, per approach, over all trials: mean cells seen on the path, mean
-- path length (steps of 1 and sqrt 2), mean expansions, in how many trials
-- the route differs from the plain one and in how many it is longer.
function M.trials()
  local out, all = {}, {}
  for li, lv in ipairs(M.TRIAL_LEVELS) do
    local grid = lv.make()
    local w, h = grid:size()
    local rnd = lcg(1000 + li)
    local done = 0
    while done < M.TRIALS_PER_LEVEL do
      local px, py, mx, my = rnd(w), rnd(h), rnd(w), rnd(h)
      if not grid:is_blocked(px, py) and not grid:is_blocked(mx, my)
          and math.max(math.abs(px - mx), math.abs(py - my)) >= 10 and grid:connected(px, py, mx, my) then
        done = done + 1
        local seen = grid:visible_from(px, py)
        for dy = -1, 1 do
          for dx = -1, 1 do
            local x, y = px + dx, py + dy
            if x >= 1 and y >= 1 and x <= w and y <= h then seen:set(x, y, 0) end
          end
        end
        local plain
        for ai, a in ipairs(approaches(grid, px, py, seen)) do
          local p = assert(grid:find_path(mx, my, px, py, a[2]))
          local n, length = 0, 0
          local xy = p.xy
          for k, c in ipairs(xy) do
            n = n + seen:get(c[1], c[2])
            if k > 1 then
              local q = xy[k - 1]
              length = length + ((q[1] ~= c[1] and q[2] ~= c[2]) and math.sqrt(2) or 1)
            end
          end
          local r = all[ai] or { name = a[1], seen = 0, length = 0, expanded = 0, changed = 0, longer = 0,
                                 trials = 0, costs = {}, routes = {} }
          all[ai] = r
          r.trials = r.trials + 1
          r.seen, r.length, r.expanded = r.seen + n, r.length + length, r.expanded + p.expanded
          if ai == 1 then
            plain = { nodes = table.concat(p.nodes, ","), length = length }
          else
            if table.concat(p.nodes, ",") ~= plain.nodes then r.changed = r.changed + 1 end
            if length > plain.length + 1e-9 then r.longer = r.longer + 1 end
          end
          r.costs[#r.costs + 1] = p.cost
          r.routes[#r.routes + 1] = table.concat(p.nodes, ",")
        end
      end
    end
  end
  for _, r in ipairs(all) do
    out[#out + 1] = {
      name = r.name, trials = r.trials, seen = r.seen / r.trials, length = r.length / r.trials,
      expanded = r.expanded / r.trials, changed = r.changed, longer = r.longer, costs = r.costs,
      routes = r.routes,
    }
  end
  return out
end

--- The stealth table of the README, as markdown rows.
function M.table_rows(results)
  local rows = {}
  for _, r in ipairs(results) do
    -- three decimals: a mean of 40 integers is exact there (C's printf and
    -- LuaJIT's would round an exact half apart)
    rows[#rows + 1] = ("| %s | %.3f | %.3f | %.3f | %d of %d | %d |"):format(
      r.name, r.seen, r.length, r.expanded, r.changed, r.trials, r.longer)
  end
  return rows
end

-- The level with the route: '#' wall, ':' floor the player can see,
-- '.' hidden floor, '*' the route, 'M' the monster, 'P' the player.
local function draw(grid, seen, path, points, marks)
  local w, h = grid:size()
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      row[x] = grid:is_blocked(x, y) and "#" or (seen:get(x, y) ~= 0 and ":" or ".")
    end
    rows[y] = row
  end
  for _, c in ipairs(path and path.xy or {}) do rows[c[2]][c[1]] = "*" end
  for _, c in ipairs(points and cells_along(points) or {}) do rows[c[2]][c[1]] = "o" end
  marks = marks or { M = MONSTER, P = PLAYER }
  for ch, at in pairs(marks) do rows[at[2]][at[1]] = ch end
  for y = 1, h do rows[y] = table.concat(rows[y]) end
  return table.concat(rows, "\n")
end

function M.main()
  print("over " .. 2 * M.TRIALS_PER_LEVEL .. " trials (means):")
  print("| approach | cells seen | length | expansions | route changed | longer |")
  for _, row in ipairs(M.table_rows(M.trials())) do print(row) end
  print()
  local r = M.run()
  for _, x in ipairs(r.results) do
    print(("%s: length %.1f, seen on %d of %d cells, %d expansions, %.0f us"):format(
      x.name, x.length, x.seen_cells, #x.path.xy, x.path.expanded, x.us))
    print(draw(r.grid, r.seen, x.path))
    print()
  end
  for _, x in ipairs({ { "the courtyard: the penalty route, smoothed", r.smoothed },
                       { "string pulling by line of sight alone", r.sight_only } }) do
    print(("%s: %d points, seen on %d cells ('o' the cells its lines cross)"):format(
      x[1], #x[2].points, x[2].seen_cells))
    print(draw(r.yard, r.lit, nil, x[2].points,
      { M = { GATES[1], GATES[2] }, P = { LANTERN[1], LANTERN[2] } }))
    print()
  end
end

local is_main = arg and arg[0] and debug.getinfo(1, "S").source == "@" .. arg[0]
if is_main then M.main() end
return M
