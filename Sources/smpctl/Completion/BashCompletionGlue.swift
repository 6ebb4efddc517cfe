/// What `smpctl --generate-completion-script bash` adds to argument-parser's script.
///
/// Connection strings hold colons and equals signs (`serial:/dev/ttyACM0`, `serial:usb=2fe3:0100`),
/// and bash splits the words it hands a completion function at every character of
/// `COMP_WORDBREAKS`, both included: the generated function would take `serial`, `:` and
/// `/dev/ttyACM0` for three words, miscount the arguments after them, and complete nothing after
/// `serial:`. This wrapper joins those words again before calling the generated function
/// (`_smpctl`), completes the values of the global options (``LeadingOptions/valued``; `-c` through
/// ``ConnectionCompletion``) with smpctl's own candidates wherever they stand, leaves out the global options given before the
/// subcommand (``LeadingOptions`` moves them behind it; the generated function knows them only
/// there), and hands bash back only the part after the word's last `:` or `=`, which is what
/// bash replaces.
enum BashCompletionGlue {
    /// The subcommand whose options answer for the global options' values (`-c`, and `-p` once it
    /// completes profile names): every device command shares them.
    static let connectionCommand = ["os", "echo"]

    /// Appended to the generated script: it replaces the `complete` line with one for the wrapper.
    static var script: String {
        let valued = LeadingOptions.valued.sorted().joined(separator: "|")
        let joinedValues = LeadingOptions.valued.sorted().map { $0.hasPrefix("--") ? $0 + "=*" : $0 + "?*" }.joined(separator: "|")
        let flags = (LeadingOptions.flags.sorted() + ["-v", "-vv", "-vvv", "-vvvv"]).joined(separator: "|")
        return #"""

            # smpctl: join the words bash split at ':' and '=' (connection strings), leave out the global
            # options before the subcommand (smpctl reads them after it), then complete.
            __smpctl_complete_joined() {
                local breaks="${COMP_WORDBREAKS//[!:=]/}"
                local -a joined=()
                local -i cword=0 i
                local line="${COMP_LINE}" word stripped
                for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
                    word="${COMP_WORDS[i]}"
                    stripped="${line#"${line%%[![:space:]]*}"}"
                    if ((i > 0)) && [[ -n "${breaks}" && ${#stripped} -eq ${#line} ]] \
                        && [[ "${word}" == ["${breaks}"]* || "${joined[-1]}" == *["${breaks}"] ]]; then
                        joined[-1]+="${word}"
                    else
                        joined+=("${word}")
                    fi
                    line="${stripped#"${word}"}"
                    ((i == COMP_CWORD)) && cword=$((${#joined[@]} - 1))
                done
                local cur="${joined[cword]}" prev=""
                ((cword > 0)) && prev="${joined[cword - 1]}"
                COMPREPLY=()
                if [[ " \#(LeadingOptions.valued.sorted().joined(separator: " ")) " == *" ${prev} "* ]]; then
                    # A global option's value, before or after the subcommand: smpctl's own candidates.
                    local candidate
                    while IFS='' read -r candidate; do
                        [[ "${candidate}" == "${cur}"* ]] && COMPREPLY+=("${candidate}")
                    done < <("${COMP_WORDS[0]}" ---completion \#(connectionCommand.joined(separator: " ")) -- "${prev}" "${cword}" "${#cur}" "${joined[@]}" 2>/dev/null)
                    if [[ "${prev}" == -c || "${prev}" == --connection ]]; then
                        compopt +o filenames 2>/dev/null
                        # A scheme or folder goes on without a space.
                        [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *[:=/] ]] && compopt -o nospace 2>/dev/null
                    fi
                else
                    local -i first=1
                    while ((first < cword)); do
                        case "${joined[first]}" in
                        \#(valued)) ((first + 1 < cword)) || break; first+=2 ;;
                        \#(joinedValues)|\#(flags)) first+=1 ;;
                        *) break ;;
                        esac
                    done
                    local -a COMP_WORDS=("${joined[0]}" "${joined[@]:first}")
                    local -i COMP_CWORD=$((cword - first + 1))
                    local COMP_LINE="${COMP_WORDS[*]::COMP_CWORD + 1}"
                    local -i COMP_POINT=${#COMP_LINE}
                    _smpctl "${1}" "${cur}" "${COMP_WORDS[COMP_CWORD - 1]}"
                fi
                # bash replaces only the text after the word's last ':' or '='.
                if [[ -n "${breaks}" && "${cur}" == *["${breaks}"]* ]]; then
                    local break_prefix="${cur%"${cur##*["${breaks}"]}"}"
                    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"${break_prefix}"}"; done
                fi
            }

            complete -o filenames -F __smpctl_complete_joined smpctl

            """#
    }
}

extension BashCompletionGlue {
    /// Whether `arguments` (without the program name) ask for the bash completion script.
    static func isRequested(by arguments: [String]) -> Bool {
        arguments == ["--generate-completion-script", "bash"] || arguments == ["--generate-completion-script=bash"]
    }

    /// The whole bash completion script: argument-parser's, then ``script``.
    static var completeScript: String { SMPCtl.completionScript(for: .bash) + script }
}
