-- The Amnesia monster (from the "A* - Part 1" lecture): it must reach a spot next to the player
-- while staying out of the player's line of sight wherever it can, so the
-- player hears it prowl behind the walls instead of watching it walk up.
--
-- Three ways to make a search danger-aware, compared with the plain path:
--   1. a Lua heuristic built on grid:line_of_sight (the lecture's approach: an
--      inadmissible heuristic that makes visible cells look far away);
--   2. a Lua cost callback that makes visible cells expensive to enter;
--   3. the grid:visible_from field as a per-query penalty (stays in C).
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

--- Runs the plain search and the three danger-aware ones; returns
-- { grid =, seen =, results = { { name =, path =, seen_cells =, us = } ... } }.
function M.run()
  local grid = astar.grid_from_string(LEVEL)
  local px, py = PLAYER[1], PLAYER[2]
  local seen = grid:visible_from(px, py)          -- 1 where the player sees
  local sx, sy, gx, gy = MONSTER[1], MONSTER[2], GOAL[1], GOAL[2]
  local K = astar.DIAGONAL - 1

  local ways = {
    { "plain octile", {} },
    { "1. Lua heuristic + line_of_sight", {
      -- octile plus a surcharge where the player would see the monster:
      -- inadmissible on purpose, so visible cells look farther than they are
      heuristic = function(x, y, tx, ty)
        local dx, dy = x - tx, y - ty
        if dx < 0 then dx = -dx end
        if dy < 0 then dy = -dy end
        local h = dx < dy and K * dx + dy or K * dy + dx
        if grid:line_of_sight(x, y, px, py) then h = h + DANGER end
        return h
      end,
    } },
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
