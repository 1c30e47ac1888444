-- A busted output handler (busted -o spec/progress.lua, as the Makefile's
-- test targets run it): a line per spec file, its name first, then a mark
-- per test as it ends, then the file's time, so a run shows which file it
-- is in and that it moves.  A file none of whose tests run (all filtered
-- out by tags) prints nothing.  The marks, the summary line ("N successes /
-- N failures / N errors / N pending : T seconds", which .ci/run adds up)
-- and the failures after it are busted's own terminal handler's
-- (utfTerminal: colours on a terminal only).  Not a spec: no _spec in its
-- name.
local WIDTH = 80 -- marks per line; a long file's marks go on below
local NAME = 36  -- the column the marks start at

return function(options)
  local busted = require("busted")
  local handler = require("busted.outputHandlers.utfTerminal")(options)
  local file, shown, marks, indent -- the file running, whether its line is out

  busted.subscribe({ "file", "start" }, function(element)
    file, shown = element.name, false
    return nil, true
  end)

  -- its first test shows the file; before utfTerminal's mark (subscribers
  -- run in order of priority)
  local function show()
    if shown or not file then return end
    shown, marks = true, 0
    io.write("\n", file, (" "):rep(NAME - #file), " ")
    io.flush()
    indent = (" "):rep(math.max(NAME, #file) + 1)
  end
  busted.subscribe({ "test", "start" }, function()
    show()
    return nil, true
  end, { priority = 1 })
  busted.subscribe({ "test", "end" }, function()
    show()
    if marks > 0 and marks % WIDTH == 0 then io.write("\n", indent) end
    marks = marks + 1
    return nil, true
  end, { priority = 1, predicate = handler.cancelOnPending })

  busted.subscribe({ "file", "end" }, function(element)
    if shown then
      io.write((" %.1f s"):format(element.duration or 0))
      io.flush()
    end
    file = nil
    return nil, true
  end)

  return handler
end
