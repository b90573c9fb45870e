#!/usr/bin/env python3
"""Validates Debug Adapter Protocol messages against the official schema.

Reads JSON messages, one per line, from the file named by the first argument; each is
validated against its definition in debugAdapterProtocol.json (JSON Schema draft 4): a
response against `<Command>Response` (`ErrorResponse` when it failed), an event against
`<Event>Event`. Prints one line per invalid message and exits 1 if there is any; exits 3
when the `jsonschema` package is missing.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed (pip install jsonschema)")
    sys.exit(3)

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "debugAdapterProtocol.json"), encoding="utf-8") as schema_file:
    schema = json.load(schema_file)
definitions = schema["definitions"]


def definition(message):
    if message.get("type") == "response":
        if not message.get("success", False):
            return "ErrorResponse"
        command = message.get("command", "")
        return command[:1].upper() + command[1:] + "Response"
    if message.get("type") == "event":
        event = message.get("event", "")
        return event[:1].upper() + event[1:] + "Event"
    return "ProtocolMessage"


failures = 0
with open(sys.argv[1], encoding="utf-8") as messages:
    for number, line in enumerate(messages, 1):
        message = json.loads(line)
        name = definition(message)
        if name not in definitions:
            print(f"message {number}: no definition {name} in the schema: {line.strip()[:200]}")
            failures += 1
            continue
        validator = jsonschema.Draft4Validator({"$ref": "#/definitions/" + name, "definitions": definitions})
        for error in validator.iter_errors(message):
            path = "/".join(str(part) for part in error.absolute_path)
            print(f"message {number} ({name}) at '{path}': {error.message[:300]}")
            failures += 1
print(f"validated {number if 'number' in dir() else 0} messages")
sys.exit(1 if failures else 0)
