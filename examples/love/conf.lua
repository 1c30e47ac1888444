-- LÖVE 11 configuration for the astar demo (see main.lua).
-- luacheck: globals love
function love.conf(t)
  t.version = "11.0"               -- any LÖVE 11.x
  t.identity = "astar-love-demo"
  t.window.title = "astar: time-sliced agents and the Amnesia monster"
  t.window.width = 800             -- 40 x 30 cells of 20 pixels ...
  t.window.height = 700            -- ... plus a five-line status bar
  t.window.vsync = 1
  -- Only what the demo uses.  No audio in particular: a headless run under
  -- xvfb has no sound device, and OpenAL would only print warnings.
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.touch = false
  t.modules.video = false
end
