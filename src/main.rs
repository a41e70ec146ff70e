fn main() {
    println!("gameai: server not wired yet");
}
