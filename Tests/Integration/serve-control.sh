# Helpers for the control-socket test (vm/44-*), on top of lib.sh and serve.sh:
# one request per connection (after a hello), the response picked with jq.

# Sends REQUEST (a JSON object; its id must be 1) and prints the response to it.
control_response() { # JSON
    control_requests "$1" | jq -c 'select(.id == 1)'
}

# Sends REQUEST, fails unless it succeeded, prints its result.
control_ok() { # JSON
    local response
    response=$(control_response "$1")
    [[ $(jq -r .ok <<<"$response" 2>/dev/null) == true ]] || fail "request failed: $1 → '$response'"
    jq -c .result <<<"$response"
}

# Sends REQUEST, fails unless it was refused with CODE, prints the error's message.
control_refused() { # CODE JSON
    local response
    response=$(control_response "$2")
    [[ $(jq -r '.ok, .error.code' <<<"$response" 2>/dev/null | tr '\n' ' ') == "false $1 " ]] \
        || fail "expected error '$1' for $2, got '$response'"
    jq -r .error.message <<<"$response"
}

# The value of parameter NAME of node ID in the daemon's nodes.list.
node_parameter() { # ID NAME
    control_ok '{"id":1,"request":"nodes.list"}' \
        | jq -r --arg id "$1" --arg name "$2" '.[] | select(.id == $id) | .parameters[] | select(.name == $name) | .value'
}

# The ids of the daemon's nodes, sorted, on one line.
node_ids() {
    control_ok '{"id":1,"request":"nodes.list"}' | jq -r '[.[].id] | sort | join(" ")'
}
