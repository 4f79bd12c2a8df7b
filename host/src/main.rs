fn main() {
    println!("arena");
}
