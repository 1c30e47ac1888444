-- An RTS under walls that move (issue 17): 300 units of sizes 1 to 3 on a
-- 256 x 256 map share a budget of 2,000 expansions a frame (q:step(share),
-- the fair share the README's recipe used before astar.planner, whose own
-- recipe spec/readme_spec.lua runs), while a wall across the map moves its
-- door every 60 frames.  Counted in frames, not timed.  With queries that
-- repair (the default) every unit gets its path; with on_change =
-- "restart" the sized A* searches begin again at every move and most never
-- finish within 1,200 frames (the issue's reproducer: 157 of 300).
local astar = require("astar")

local function rts(mode, algorithm)
  local W = 256
  local map = astar.grid(W, W)
  local mid = math.floor(W / 2)
  -- the door begins where its first move puts it (every unit has a way)
  for y = 2, W - 2 do map:set_blocked(mid, y, y < 2 or y > 6) end
  local thinking, arrived, frames, moves, units = {}, 0, 0, 0, {}
  for i = 1, 300 do
    local y = 1 + (i * 7) % (W - 3)
    local q = map:query(1, y, W - 3, W - 3 - (y - 1), { size = 1 + i % 3, on_change = mode, algorithm = algorithm })
    thinking[#thinking + 1] = q
    units[q] = { y = y, size = 1 + i % 3 }
  end
  local repairs, restarts = 0, 0
  while #thinking > 0 and frames < 1200 do
    frames = frames + 1
    if frames % 60 == 0 then -- the wall's door slides; a post elsewhere comes and goes
      moves = moves + 1
      local door = 2 + (moves * 5) % (W - 8)
      for y = 2, W - 2 do map:set_blocked(mid, y, y < door or y > door + 4) end
      map:set_blocked(mid + 8, 1 + (moves * 11) % W, moves % 2 == 0)
    end
    local share = math.max(1, math.floor(2000 / #thinking))
    for i = #thinking, 1, -1 do
      local q = thinking[i]
      if q:step(share) ~= "searching" then
        local path, why, stats = q:result()
        local u = units[q]
        if path then
          arrived = arrived + 1
          assert.is_true(map:path_valid(path), "a path on the map as it is")
          assert.equal(map:version(), path.version)
          if arrived % 10 == 0 then -- one in ten against a fresh search
            local fresh = map:find_path(1, u.y, W - 3, W - 3 - (u.y - 1), { size = u.size })
            assert.is_true(math.abs(fresh.cost - path.cost) <= 1e-9 * fresh.cost)
          end
        else
          assert.equal("unreachable", why, "every unit has a way through")
        end
        local st = path or stats
        repairs = repairs + (st.repairs or 0)
        restarts = restarts + (st.restarts or 0)
        table.remove(thinking, i)
      end
    end
  end
  return arrived, #thinking, frames, repairs, restarts
end

describe("the RTS recipe under walls that move", function()
  -- A* searches, as the issue's reproducer ran (sized units had no jump
  -- point search then): slow enough that the door moves under them
  it("routes all 300 units when A* queries repair", function()
    local arrived, left, frames, repairs, restarts = rts("repair", "astar")
    assert.equal(300, arrived)
    assert.equal(0, left)
    assert.is_true(frames < 1200, frames .. " frames")
    assert.is_true(repairs > 0)
    assert.is_true(restarts < repairs / 4, restarts .. " restarts, " .. repairs .. " repairs")
  end)

  it("routes all 300 units with the default search (jump points, A* once a change reaches one)", function()
    local arrived, left, frames = rts("repair")
    assert.equal(300, arrived)
    assert.equal(0, left)
    assert.is_true(frames < 1200, frames .. " frames")
  end)

  it("leaves sized units without a path when A* queries restart (the reproducer) #system", function()
    local arrived, left, frames = rts("restart", "astar")
    assert.equal(1200, frames)
    assert.is_true(left > 100, left .. " units still thinking")
    assert.equal(300, arrived + left)
  end)
end)
