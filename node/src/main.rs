//! PoG chain node.
#![warn(missing_docs)]
// `sc_cli::Error`, which every command returns, is Substrate's and large (176 bytes); boxing it at
// each call would only hide the same type.
#![allow(clippy::result_large_err)]

mod chain_spec;
mod cli;
mod command;
mod equivocation;
mod rpc;
mod service;

fn main() -> sc_cli::Result<()> {
	command::run()
}
