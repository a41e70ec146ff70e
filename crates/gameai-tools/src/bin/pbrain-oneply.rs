//! `pbrain-oneply`: seed 002's one-ply "most valuable point" player over the Gomocup
//! (Piskvork) protocol on stdin / stdout, the test opponent of the match harness
//! (`tools/gomocup/`). See `gameai_tools::oneply` for the algorithm.

use std::io;
use std::process::ExitCode;

use gameai::gomocup::driver;
use gameai_tools::oneply::OnePly;

fn main() -> ExitCode {
    match driver::run(
        OnePly,
        io::stdin(),
        io::stdout().lock(),
        Some(driver::END_GRACE),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("pbrain-oneply: {error}");
            ExitCode::FAILURE
        }
    }
}
