//! Compiles `proto/` with protox (pure Rust, no system protoc) and writes the file
//! descriptor set that the reflection service serves.
use std::path::PathBuf;

const PROTOS: &[&str] = &[
    "proto/gameai/v1/common.proto",
    "proto/gameai/v1/doudizhu.proto",
    "proto/gameai/v1/mahjong.proto",
    "proto/gameai/v1/gomoku.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile(PROTOS, ["proto"])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out.join("gameai_descriptor.bin"),
        prost::Message::encode_to_vec(&fds),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(fds)?;
    Ok(())
}
