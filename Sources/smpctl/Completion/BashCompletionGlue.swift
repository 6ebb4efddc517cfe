/// What `smpctl --generate-completion-script bash` adds to argument-parser's script.
///
/// Connection strings hold colons (`serial:/dev/ttyACM0`), and bash splits the words it hands a
/// completion function at every character of `COMP_WORDBREAKS`, colons included: the generated
/// function would take `serial`, `:` and `/dev/ttyACM0` for three words, miscount the arguments
/// after them, and complete nothing after `serial:`. This wrapper joins those words again before
/// calling the generated function (`_smpctl`), completes `-c`/`--connection` values through
/// smpctl's own candidates (``ConnectionCompletion``) wherever they stand (also before the
/// subcommand), and hands bash back only the part after the last colon, which is what bash replaces.
enum BashCompletionGlue {
    /// The subcommand whose `--connection` option answers connection completions (every device
    /// command shares it).
    static let connectionCommand = ["os", "echo"]

    /// Appended to the generated script: it replaces the `complete` line with one for the wrapper.
    static let script = #"""

        # smpctl: join the words bash split at ':' (connection strings), then complete.
        __smpctl_complete_joined() {
            local -a joined=()
            local -i cword=0 i
            local line="${COMP_LINE}" word stripped
            for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
                word="${COMP_WORDS[i]}"
                stripped="${line#"${line%%[![:space:]]*}"}"
                if ((i > 0)) && [[ ${#stripped} -eq ${#line} ]] && [[ "${word}" == :* || "${joined[-1]}" == *: ]]; then
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
            if [[ "${prev}" == -c || "${prev}" == --connection ]]; then
                local candidate
                while IFS='' read -r candidate; do
                    [[ "${candidate}" == "${cur}"* ]] && COMPREPLY+=("${candidate}")
                done < <("${COMP_WORDS[0]}" ---completion \#(connectionCommand.joined(separator: " ")) -- --connection "${cword}" "${#cur}" "${joined[@]}" 2>/dev/null)
                compopt +o filenames 2>/dev/null
                # A scheme or folder goes on without a space.
                [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *[:=/] ]] && compopt -o nospace 2>/dev/null
            else
                local -a COMP_WORDS=("${joined[@]}")
                local COMP_CWORD="${cword}"
                _smpctl "${1}" "${cur}" "${prev}"
            fi
            # bash replaces only the text after the last ':' of the word.
            if [[ "${cur}" == *:* && "${COMP_WORDBREAKS}" == *:* ]]; then
                local colon_prefix="${cur%"${cur##*:}"}"
                for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"${colon_prefix}"}"; done
            fi
        }

        complete -o filenames -F __smpctl_complete_joined smpctl

        """#
}

extension BashCompletionGlue {
    /// Whether `arguments` (without the program name) ask for the bash completion script.
    static func isRequested(by arguments: [String]) -> Bool {
        arguments == ["--generate-completion-script", "bash"] || arguments == ["--generate-completion-script=bash"]
    }

    /// The whole bash completion script: argument-parser's, then ``script``.
    static var completeScript: String { SMPCtl.completionScript(for: .bash) + script }
}
