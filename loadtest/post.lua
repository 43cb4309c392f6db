-- post.lua: wrk script POSTing the lockfile named by $LOCKFILE to the URL given to wrk.
local f = assert(io.open(os.getenv("LOCKFILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/octet-stream"
