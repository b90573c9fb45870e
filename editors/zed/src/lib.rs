// Registers `atoms-inspect dap` as Zed's debug adapter `atoms-inspect`: the command found on the
// worktree's PATH, the configuration passed along as the launch or attach request's arguments.
// Written from Zed's debugger-extension documentation; not built here (see editors/README.md).
use zed_extension_api::{
    self as zed, serde_json::Value, DebugAdapterBinary, DebugTaskDefinition,
    StartDebuggingRequestArguments, StartDebuggingRequestArgumentsRequest, Worktree,
};

struct AtomsInspect;

impl zed::Extension for AtomsInspect {
    fn new() -> Self {
        AtomsInspect
    }

    fn get_dap_binary(
        &mut self,
        _adapter_name: String,
        config: DebugTaskDefinition,
        user_provided_debug_adapter_path: Option<String>,
        worktree: &Worktree,
    ) -> Result<DebugAdapterBinary, String> {
        let command = user_provided_debug_adapter_path
            .or_else(|| worktree.which("atoms-inspect"))
            .ok_or("atoms-inspect is not on the PATH — build it (swift build -c release) and add .build/release to the PATH")?;
        let configuration: Value = zed::serde_json::from_str(&config.config).map_err(|e| e.to_string())?;
        let request = self.dap_request_kind(String::new(), configuration)?;
        Ok(DebugAdapterBinary {
            command: Some(command),
            arguments: vec!["dap".into()],
            envs: vec![],
            cwd: Some(worktree.root_path()),
            connection: None,
            request_args: StartDebuggingRequestArguments { configuration: config.config, request },
        })
    }

    fn dap_request_kind(&mut self, _adapter_name: String, config: Value) -> Result<StartDebuggingRequestArgumentsRequest, String> {
        match config.get("request").and_then(Value::as_str) {
            Some("launch") => Ok(StartDebuggingRequestArgumentsRequest::Launch),
            Some("attach") => Ok(StartDebuggingRequestArgumentsRequest::Attach),
            _ => Err("request must be \"launch\" (with a journal) or \"attach\" (with a pid or socket)".into()),
        }
    }
}

zed::register_extension!(AtomsInspect);
