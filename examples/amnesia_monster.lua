-- The Amnesia monster (from the "A* - Part 1" lecture): it must reach a spot next to the player
-- while staying out of the player's line of sight wherever it can, so the
-- player hears it prowl behind the walls instead of watching it walk up.
--
-- Three ways to make a search danger-aware, compared with the plain path:
--   1. a Lua heuristic built on grid:line_of_sight (the lecture's approach: an
--      inadmissible heuristic that makes visible cells look far away);
--   2. a Lua cost callback that makes visible cells expensive to enter;
--   3. the grid:visible_from field as a per-query penalty (stays in C).
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
    { "3. visible_from field as penalty", { penalty = seen, penalty_scale = DANGER } },
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
  return { grid = grid, seen = seen, results = results }
end

-- The level with the route: '#' wall, ':' floor the player can see,
-- '.' hidden floor, '*' the route, 'M' the monster, 'P' the player.
local function draw(grid, seen, path)
  local w, h = grid:size()
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      row[x] = grid:is_blocked(x, y) and "#" or (seen:get(x, y) ~= 0 and ":" or ".")
    end
    rows[y] = row
  end
  for _, c in ipairs(path.xy) do rows[c[2]][c[1]] = "*" end
  rows[MONSTER[2]][MONSTER[1]] = "M"
  rows[PLAYER[2]][PLAYER[1]] = "P"
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
end

local is_main = arg and arg[0] and debug.getinfo(1, "S").source == "@" .. arg[0]
if is_main then M.main() end
return M
