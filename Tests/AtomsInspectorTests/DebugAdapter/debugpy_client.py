#!/usr/bin/env python3
"""Drives `atoms-inspect dap` with a DAP client from the ecosystem: debugpy's own message
layer (debugpy.common.messaging, the code debugpy's adapter talks to editors and servers
with), as an editor would: initialize, launch, initialized, a line breakpoint,
configurationDone, then continue, next, stepBack, the stack, scopes and variables, and
disconnect.

    debugpy_client.py ADAPTER JOURNAL SOURCE_ROOT BREAKPOINT_FILE BREAKPOINT_LINE

Prints one JSON object of what the adapter answered, for the Swift test to compare with
what the other commands say. Exits 2 when debugpy is not installed, 1 on a timeout.
"""
import json
import os
import queue
import subprocess
import sys
import threading

try:
    from debugpy.common import messaging
except ImportError:
    print("debugpy is not installed (pip install debugpy)", file=sys.stderr)
    sys.exit(2)

# The tests' waits are scaled by ATOMS_TEST_PATIENCE (TestSupport's Patience); so is this one.
try:
    PATIENCE = max(1.0, float(os.environ.get("ATOMS_TEST_PATIENCE", "1")))
except ValueError:
    PATIENCE = 1.0
TIMEOUT_SECONDS = 30 * PATIENCE


def main():
    adapter, journal, root, breakpoint_file, breakpoint_line = sys.argv[1:6]
    process = subprocess.Popen([adapter, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Every wait is bounded: a hung adapter is killed and the client fails.
    watchdog = threading.Timer(TIMEOUT_SECONDS, process.kill)
    watchdog.start()
    events = queue.Queue()

    def on_event(event):
        events.put((event.event, dict(event.body) if event.body else {}))

    channel = messaging.JsonMessageChannel(
        messaging.JsonIOStream.from_process(process, name="atoms-inspect dap"),
        messaging.MessageHandlers(event=on_event, disconnect=lambda: events.put(("<closed>", {}))),
    )
    channel.start()

    def wait_for(name):
        while True:
            got, body = events.get(timeout=TIMEOUT_SECONDS)
            if got == name:
                return body
            if got == "<closed>":
                raise RuntimeError(f"the adapter closed the connection before the {name} event")

    def top_frame():
        frames = channel.request("stackTrace", {"threadId": thread_id})["stackFrames"]
        frame = frames[0]
        source = frame.get("source") or {}
        return {"name": frame["name"], "path": source.get("path"), "line": frame.get("line")}

    result = {}
    capabilities = channel.request("initialize", {
        "clientID": "debugpy-messaging", "adapterID": "atoms-inspect", "pathFormat": "path",
        "linesStartAt1": True, "columnsStartAt1": True,
    })
    result["supportsStepBack"] = bool(capabilities.get("supportsStepBack"))
    launched = channel.send_request("launch", {"journal": journal, "sourceRoot": root, "stopOnEntry": True})
    wait_for("initialized")
    verified = channel.request("setBreakpoints", {
        "source": {"path": breakpoint_file}, "breakpoints": [{"line": int(breakpoint_line)}],
    })["breakpoints"]
    result["breakpointVerified"] = bool(verified and verified[0].get("verified"))
    channel.request("configurationDone")
    launched.wait_for_response()
    result["entry"] = wait_for("stopped").get("reason")
    thread_id = channel.request("threads")["threads"][0]["id"]
    result["entryFrame"] = top_frame()

    channel.request("continue", {"threadId": thread_id})
    result["continue"] = wait_for("stopped").get("reason")
    result["breakpointFrame"] = top_frame()

    channel.request("next", {"threadId": thread_id})
    result["next"] = wait_for("stopped").get("reason")
    result["nextFrame"] = top_frame()

    channel.request("stepBack", {"threadId": thread_id})
    result["stepBack"] = wait_for("stopped").get("reason")
    result["stepBackFrame"] = top_frame()

    frame_id = channel.request("stackTrace", {"threadId": thread_id})["stackFrames"][0]["id"]
    scopes = channel.request("scopes", {"frameId": frame_id})["scopes"]
    result["scopes"] = [scope["name"] for scope in scopes]
    variables = {}
    for scope in scopes:
        for variable in channel.request("variables", {"variablesReference": scope["variablesReference"]})["variables"]:
            variables.setdefault(variable["name"], variable["value"])
    result["variables"] = variables

    channel.request("disconnect", {})
    channel.close()
    result["exitStatus"] = process.wait(timeout=TIMEOUT_SECONDS)
    watchdog.cancel()
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # a timeout, a refused request, a closed connection
        print(f"debugpy_client: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
