-- Fifty agents path across frames: each runs its own time-sliced query in
-- its own coroutine, and a frame gives every agent a small budget of
-- expansions.  A long search never stalls a frame; agents that finish start
-- walking while the others are still thinking.
--
--   lua5.4 examples/agents.lua   (LUA_PATH / LUA_CPATH set as in the README)
local astar = require("astar")

-- a level: a long wall with two gaps, and some pillars
local level = astar.grid(96, 64)
for y = 1, 64 do
  if y ~= 10 and y ~= 55 then level:set_blocked(48, y, true) end
end
for i = 0, 40 do level:set_blocked(8 + (i * 37) % 80, 4 + (i * 17) % 56, true) end

-- a deterministic pseudo-random open cell (the same run on every Lua)
local seed = 12345
local function random_open_cell()
  repeat
    seed = (seed * 16807) % 2147483647
    local x = 1 + seed % 96
    seed = (seed * 16807) % 2147483647
    local y = 1 + seed % 64
    if not level:is_blocked(x, y) then return x, y end
  until false
end

local BUDGET = 30 -- expansions per agent per frame
local agents = {}
for i = 1, 50 do
  local sx, sy = random_open_cell()
  local gx, gy = random_open_cell()
  agents[i] = {
    id = i,
    thinker = coroutine.create(function()
      local q = level:query(sx, sy, gx, gy)
      while q:step(BUDGET) == "searching" do coroutine.yield() end
      return q:result()
    end),
  }
end

local frame, done, expanded, longest = 0, 0, 0, 0
while done < #agents do
  frame = frame + 1
  for _, a in ipairs(agents) do
    if not a.path and coroutine.status(a.thinker) == "suspended" then
      local ok, path, why = coroutine.resume(a.thinker)
      assert(ok, path)
      if coroutine.status(a.thinker) == "dead" then
        done = done + 1
        a.path = path or why
        if path then
          expanded = expanded + path.expanded
          if frame > longest then longest = frame end
        end
      end
    end
  end
end

local found = 0
for _, a in ipairs(agents) do if type(a.path) == "table" then found = found + 1 end end
print(("%d agents, %d paths found, %d unreachable, in %d frames (budget %d expansions "
  .. "per agent per frame; %d expansions in all; the slowest agent finished at frame %d)")
  :format(#agents, found, #agents - found, frame, BUDGET, expanded, longest))
