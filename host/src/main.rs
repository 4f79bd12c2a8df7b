use clap::Parser;

fn main() {
    let cli = arena::cli::Cli::parse();
    match arena::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::exit(2);
        }
    }
}
