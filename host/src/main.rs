use clap::Parser;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(arena::sandbox::COMPILE_SUBCOMMAND) {
        std::process::exit(arena::sandbox::compile_child_main(&args[2..]));
    }
    arena::sandbox::Compiler::set_process_default(arena::sandbox::Compiler::for_command());
    let cli = arena::cli::Cli::parse();
    match arena::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            // Errors quote names, paths and file contents: nothing in them reaches the terminal raw.
            eprintln!("error: {}", arena::terminal::block(&format!("{err:#}")));
            std::process::exit(2);
        }
    }
}
